// Deliberately not a module. src/core/tsconfig.json maps the module name `vscode` to this file, so
// `import ... from 'vscode'` in src/core fails to compile ("is not a module"): core is pure and must
// not depend on the editor. The layering test (test/core/layering.test.ts) also catches require() and
// side-effect imports, which the compiler lets through.
