// Deliberately not a module. src/core/tsconfig.json and webview/tsconfig.json map the editor's module name to
// this file, so importing it there fails to compile ("is not a module"): the core is pure and the webview runs
// in a browser, neither may depend on the editor. It lives outside both rooms so neither names the editor at
// all. The layering test (test/core/layering.test.ts) also catches require() and side-effect imports, which
// the compiler lets through.
