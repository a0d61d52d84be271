// Deliberately not a module. webview/tsconfig.json maps the module name `vscode` to this file, so
// `import ... from 'vscode'` in webview/ fails to compile ("is not a module"): the webview runs in a browser and must
// not depend on the editor. The layering test (test/core/layering.test.ts) also catches require() and
// side-effect imports, which the compiler lets through.
