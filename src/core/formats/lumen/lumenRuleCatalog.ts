import { ruleCatalog, RuleEntry } from '../../catalog/ruleEntries';

const LINE1 = '{"seq":1,"kind":"run_start","prev_hash":"sha256:genesis","hash":"sha256:7266…6f22","timestamp":"2023-11-14T22:13:20Z","doc_hash":"sha256:2c26…e7ae"}';

/** Rules that decide whether upstream can load the file at all; reported by both `verify` and `check`. */
const LOAD_RULES = [
  ['line-json', 'verify', 'error', 'Every line parses as one JSON object.',
    'Lumen reads a trace by splitting it on newlines (a trailing \\r is stripped) and deserializing every line; one bad line makes `lumen trace show` fail with `invalid JSON in trace at line N: …`, so nothing in the file can be verified upstream. Blank lines count as failures, and so do a repeated known key (`duplicate field`), a lone surrogate escape, a number out of the f64 range and a byte-order mark. An incomplete last line without a newline is reported as parse/torn-tail instead: the writer was still writing or crashed mid-line.',
    '{"seq":3,"kind":"vm_step","prev_hash":"sha256:…"\n\n{"seq":4,…}'],
  ['required-fields', 'verify', 'error', 'seq, kind, prev_hash, hash, timestamp and doc_hash are present with the right types.',
    '`seq` must be a non-negative integer that fits u64 (a float token such as `1.0` is refused by serde), and `kind`, `prev_hash`, `hash`, `timestamp` and `doc_hash` must be strings. A line without them does not deserialize, and the chain cannot be followed through it: the next line\'s prev_hash is then not checked.',
    '{"seq":"3","kind":"vm_step",…}'],
  ['field-type', 'verify', 'error', 'Optional fields have their declared types or are null.',
    '`cell`, `tool_id`, `tool_version`, `inputs_hash`, `outputs_hash`, `policy_hash` and `message` are strings, `latency_ms` is a u64 and `cached` a boolean; each may be absent or null. Any other type makes serde reject the line, so upstream fails to load the trace even when the hash matches.',
    '{…,"latency_ms":"12",…}'],
  ['kind-known', 'check', 'error', '`kind` is one of the ten event kinds.',
    'The kinds are run_start, cell_start, cell_end, call_enter, call_exit, vm_step, tool_call, schema_validate, error and run_end. Upstream fails to load a trace with any other kind. The event is still shown, with its raw line.',
    '{"seq":5,"kind":"tool_result",…}'],
  ['timestamp-rfc3339', 'check', 'error', '`timestamp` parses as RFC 3339.',
    'chrono deserializes the timestamp as an RFC 3339 date-time with any offset; anything else fails the line. The timestamp is outside the hash, so editing it never breaks the chain, but an unparseable one still breaks loading.',
    '{…,"timestamp":"yesterday",…}'],
] as const satisfies readonly RuleEntry[];

/** Integrity rules: the hash chain of §6. */
const CHAIN_RULES = [
  ['hash-format', 'verify', 'error', 'hash is sha256: + 64 lowercase hex; prev_hash too, or sha256:genesis.',
    'The writer stores `"sha256:" + lowercase hex`. Another shape cannot be the output of the writer (upper-case hex, a bare digest, a truncated value) and usually also fails lumen/event-hash or the next line\'s lumen/chain-prev-hash.',
    '{…,"hash":"SHA256:ABC…",…}'],
  ['chain-seq', 'verify', 'error', 'seq counts 1, 2, 3… without gaps or repeats.',
    'The writer numbers events from 1 and the chain rule expects each line to carry the previous seq + 1. A jump forward means lines are missing (deleted, or dropped by a write error, which the writer ignores); a repeat or a step back means a duplicated or reordered line. After a mismatch the count continues from the line\'s own seq, so one break gives one finding.',
    'line 20: {"seq":21,…}   (seq 20 is missing)'],
  ['chain-genesis', 'verify', 'error', 'The first line has prev_hash sha256:genesis.',
    'Every run starts its chain from the literal `sha256:genesis`. Another value on the first line means the head of the file was cut off (the file starts mid-run) or the first line was edited. Reported with the lumen/chain-prev-hash message.',
    LINE1.replace('sha256:genesis', 'sha256:726630c9…')],
  ['chain-prev-hash', 'verify', 'error', 'Each prev_hash equals the previous line\'s stored hash.',
    'Each line names the hash of the line before it. A mismatch shows where the chain is broken: a line before it was deleted, inserted, duplicated or moved, or this prev_hash was edited. The check continues with this line\'s own stored hash, so a single break is reported once.',
    'line 4: {"seq":4,"prev_hash":"sha256:<hash of seq 2>",…}'],
  ['event-hash', 'verify', 'error', 'hash is the SHA-256 of the canonical JSON of the line\'s fourteen hashed fields.',
    'The pre-image holds seq, kind, prev_hash, doc_hash, cell, tool_id, tool_version, inputs_hash, outputs_hash, policy_hash, latency_ms, cached, details and message (absent ones as null), with keys sorted and no whitespace, and numbers re-serialized the way serde_json prints them. A mismatch means one of these fields was changed after writing (or the hash itself was). timestamp and unknown keys are outside the hash and can change without this rule noticing.',
    '{"seq":31,"kind":"tool_call",…,"latency_ms":148,…}   (written as 1480)'],
  ['chain-first-failure', 'verify', 'info', 'Where upstream\'s verifier would stop.',
    'Lumen\'s verify_event_chain stops at the first failure and reports only that one. This viewer continues, re-basing the expected seq and prev_hash on each line\'s stored values, so that every independent break is shown once. This note marks the line where upstream would have stopped, when more breaks follow it.'],
  ['truncated', 'verify', 'warning', 'The trace ends with run_end.',
    'A hash chain cannot reveal a cut tail: every line that remains still verifies, because each line only names its predecessor. A truncated tail is therefore only detectable against an expected end, here the run_end event the writer always writes last (or a head hash recorded elsewhere). Without run_end the run crashed, is still running, or the file lost its last lines. Reported by both verify and check.',
    '…{"seq":41,"kind":"vm_step",…}<end of file>'],
  ['unknown-key', 'verify', 'warning', 'A key outside the line format is present.',
    'Upstream ignores unknown keys, and they are not part of the hash: anything stored in them can be added or changed without breaking the chain, so their content is not protected.',
    '{…,"note":"added later"}'],
  ['float-in-details', 'verify', 'info', 'details holds a float; its hash depends on serde_json\'s float layout.',
    'The writer never puts floats in details, but a hand-made trace can. The hash is computed over the number as serde_json re-prints it (ryu layout, e.g. 1.0, 1e16, 1e-7). Lumen\'s serde_json release formats floats with a different library whose layout is not confirmed identical, so a mismatch on such a line may be a layout difference rather than tampering.',
    '{…,"details":{"score":0.5}}'],
  ['doc-hash-resolve', 'verify', 'info', 'A source file whose SHA-256 equals doc_hash was found.',
    'From the CLI, doc_hash is `sha256:` + hex SHA-256 of the .lm source the run executed. Source files near the trace (the project that holds `.lumen/trace/`) are hashed, and a match is offered as the document of the run.'],
] as const satisfies readonly RuleEntry[];

/** Conformance rules: the run state machine of §9 and the per-kind fields of §4. */
const RUN_RULES = [
  ['first-run-start', 'check', 'error', 'The first line is run_start.',
    'start_run creates the file and writes run_start before anything else. Another first event means the head of the file is missing or the file was assembled by hand.',
    '{"seq":1,"kind":"cell_start",…}'],
  ['duplicate-run-start', 'check', 'error', 'run_start appears only on the first line.',
    'One file holds exactly one run: start_run truncates the file and restarts the chain. A second run_start means runs were concatenated into one file.'],
  ['after-run-end', 'check', 'error', 'No line follows run_end.',
    'end_run writes run_end and closes the file, so the writer cannot add more. Lines after it were appended by something else.'],
  ['doc-hash-constant', 'check', 'error', 'Every line has the first line\'s doc_hash.',
    'doc_hash is set once per run by start_run and copied onto every event. A different value means lines from another run or document were mixed in, or the field was edited (which also breaks the event hash).'],
  ['nested-cell', 'check', 'error', 'No cell_start while a cell is open.',
    'The CLI runs one entry cell per run: cell_start, VM events, then cell_end or error. A cell_start inside an open cell does not come from that writer path.'],
  ['call-balance', 'check', 'warning', 'call_exit matches the innermost call_enter, or the entry cell.',
    'The VM writes call_enter on Call and call_exit on Return. The entry frame has no call_enter but writes a call_exit when it returns, and tail calls or the JIT can break exact pairing, so a mismatch is a warning, not an error.',
    'call_enter fetch_page … call_exit summarize'],
  ['cell-end', 'check', 'warning', 'cell_end names the open cell, with no call left open.',
    'cell_end(c) should close the entry cell after all its calls returned. A different name, calls still on the stack, a cell_end without cell_start, or a run_end while the cell is still open (neither cell_end nor error) means events were lost or reordered.'],
  ['event-cell', 'check', 'warning', 'vm_step, tool_call and schema_validate carry the current frame\'s cell.',
    'These events carry the cell of the frame that executes them: the innermost open call, or the entry cell. Another cell suggests a lost call_enter or call_exit.'],
  ['kind-fields', 'check', 'error', 'Each kind carries the fields its writer method sets.',
    'tool_call: tool_id, tool_version, latency_ms, cached, details.success; vm_step: details.ip (integer) and details.opcode; schema_validate: details.schema and details.valid; call_exit: details.result_type; error: message; the cell-scoped kinds also carry cell. `lumen trace show --format replay` reads exactly these.',
    '{"seq":8,"kind":"tool_call","cell":"main","tool_id":"http.get"}'],
  ['run-id-name', 'check', 'info', 'The file name is the run id (a UUID).',
    'The run id exists only in the file name `<run_id>.jsonl`; no line contains it. A renamed file loses its run id and nothing inside the file can confirm it.'],
] as const satisfies readonly RuleEntry[];

/** The lumen catalog; every lumen finding is made from it. */
export const LUMEN_CATALOG = ruleCatalog('lumen', 'lumen', [...LOAD_RULES, ...CHAIN_RULES, ...RUN_RULES]);

/** A lumen rule id. */
export type LumenRuleId = Parameters<typeof LUMEN_CATALOG.finding>[0];

/** The catalog of lumen rules. */
export const LUMEN_RULE_INFOS = LUMEN_CATALOG.rules;
