import { Buffer } from 'buffer';
import { isObj, Obj } from '../common';
import { MURMUR_WIRE_HASH_FIELDS, murmurEventType } from './catalog';
import { Finding } from '../../model';
import { LineInput } from '../../rules/types';
import { MURMUR_CATALOG, MurmurRuleId } from './ruleCatalog';
import { validateMurmurFields } from './schemas';
import { jsonPreview } from '../../json/jsonPreview';

const CAMEL = /[a-z0-9][A-Z]/;
const MAX_REASON_BYTES = 2000;

/**
 * Line-local conformance rules: envelope, event-type-known, required-fields / field-type / field-value (zod),
 * snake-case, reason-length, task-rejected-keys, no-credential-token, retention-count, plan-counts and
 * failed-inference-hashes. Each needs only the line itself.
 */
export class FieldCheck {
  private readonly out: Finding[] = [];
  private readonly unknownTypes = new Map<string, { line: number; count: number }>();

  add(input: LineInput): void {
    // Checked on the raw text so that torn and unparseable lines cannot hide a token.
    const token = input.text.indexOf('mft1.');
    if (token >= 0) this.push('murmur/no-credential-token', input.line, undefined, `The line contains "mft1." at column ${token + 1}: a credential token must never be written to the trace.`);
    const o = input.value;
    if (!isObj(o)) return;
    const type = typeof o.event_type === 'string' ? o.event_type : null;
    const id = typeof o.event_id === 'string' ? o.event_id : undefined;
    const push = (rule: MurmurRuleId, message: string) => this.push(rule, input.line, id, message);
    this.checkEnvelope(o, type, push);
    if (type === null) return;
    if (!murmurEventType(type)) {
      const seen = this.unknownTypes.get(type);
      if (seen) seen.count++;
      else this.unknownTypes.set(type, { line: input.line, count: 1 });
      return;
    }
    for (const issue of validateMurmurFields(type, o)) push(issue.rule, issue.message);
    for (const k of Object.keys(o)) if (CAMEL.test(k)) push('murmur/snake-case', `Key "${k}" is camelCase; the writer only writes snake_case keys.`);
    this.checkTypeRules(type, o, push);
  }

  finish(): Finding[] {
    for (const [type, { line, count }] of this.unknownTypes) {
      this.push('murmur/event-type-known', line, undefined, `event_type "${type}" is not one of the 61 documented types (${count} line${count === 1 ? '' : 's'}); kept and shown as is.`);
    }
    return this.out;
  }

  private checkEnvelope(o: Obj, type: string | null, push: (rule: MurmurRuleId, message: string) => void): void {
    const bad: string[] = [];
    if (type === null) bad.push(`event_type is ${describe(o.event_type)}, expected a string`);
    if (typeof o.event_id !== 'string') bad.push(`event_id is ${describe(o.event_id)}, expected a string`);
    if (typeof o.session_id !== 'string') bad.push(`session_id is ${describe(o.session_id)}, expected a string`);
    const ts = o.timestamp;
    if (!(typeof ts === 'number' && Number.isInteger(ts) && ts > 0)) bad.push(`timestamp is ${describe(ts)}, expected integer milliseconds > 0`);
    if (!('parent_id' in o)) {
      if (type !== 'shell_lost') bad.push('the parent_id key is missing (only shell_lost may omit it)');
    } else if (o.parent_id !== null && typeof o.parent_id !== 'string') bad.push(`parent_id is ${describe(o.parent_id)}, expected a string or null`);
    else if (o.parent_id === null && type === 'shell_lost') bad.push('shell_lost has parent_id null; it omits the key when the parent is unknown');
    if (bad.length > 0) push('murmur/envelope', bad.join('; ') + '.');
  }

  private checkTypeRules(type: string, o: Obj, push: (rule: MurmurRuleId, message: string) => void): void {
    const longText = (field: string) => {
      const v = o[field];
      if (typeof v === 'string' && Buffer.byteLength(v, 'utf8') > MAX_REASON_BYTES) {
        push('murmur/reason-length', `${type}.${field} is ${Buffer.byteLength(v, 'utf8')} bytes; the writer caps it at ${MAX_REASON_BYTES} bytes.`);
      }
    };
    if (type === 'task_failed') longText('reason');
    if (type === 'session_start' && o.formation_member !== undefined && o.formation_callees === undefined) {
      push('murmur/required-fields', 'session_start has formation_member but no formation_callees; the writer writes the callees (possibly []) whenever a member is set.');
    }
    if (type === 'inference') {
      longText('error');
      const hashes = MURMUR_WIRE_HASH_FIELDS.filter((f) => o[f] !== undefined);
      if (o.error_code !== undefined && hashes.length > 0) {
        push('murmur/failed-inference-hashes', `Failed inference (error_code ${JSON.stringify(o.error_code)}) carries ${hashes.join(', ')}; failed records are written without a wire and carry no hashes.`);
      }
    }
    if (type === 'task_rejected' && Object.keys(o).length !== 10) {
      push('murmur/task-rejected-keys', `task_rejected has ${Object.keys(o).length} keys, expected exactly 10 (envelope + task_id, context_id, source, cause, reason).`);
    }
    if (type === 'retention' && Array.isArray(o.targets) && typeof o.removed === 'number' && o.removed !== o.targets.length) {
      push('murmur/retention-count', `retention.removed is ${o.removed} but targets lists ${o.targets.length}.`);
    }
    if (type === 'plan_start' && Array.isArray(o.steps) && typeof o.step_count === 'number' && o.step_count !== o.steps.length) {
      push('murmur/plan-counts', `plan_start.step_count is ${o.step_count} but steps lists ${o.steps.length}.`);
    }
    if (type === 'plan_end') {
      const [ok, failed, skipped, total] = ['steps_succeeded', 'steps_failed', 'steps_skipped', 'steps_total'].map((k) => (typeof o[k] === 'number' ? (o[k] as number) : NaN));
      if (ok + failed + skipped > total) push('murmur/plan-counts', `plan_end steps_succeeded + steps_failed + steps_skipped = ${ok + failed + skipped}, more than steps_total ${total}.`);
    }
  }

  private push(rule: MurmurRuleId, line: number, eventId: string | undefined, message: string): void {
    this.out.push(MURMUR_CATALOG.finding(rule, line, message, eventId !== undefined ? { eventId } : undefined));
  }
}

function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  return jsonPreview(v, 39);
}
