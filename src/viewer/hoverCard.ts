import { TraceModel } from '../core/loadTrace';

/** Markdown-safe text: trace content is hostile, so every character markdown could act on is escaped. */
export function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (c) => `\\${c}`);
}

/** The summary of an event shown in hovers: kind, label, line, time, status. */
export function eventCardMarkdown(model: TraceModel, i: number, id: string): string {
  const e = model.events.get(i);
  const status = e.status === 'ok' ? '' : ` · **${e.status}**`;
  const time = e.time !== null ? ` · ${new Date(e.time).toISOString()}` : '';
  const seq = e.seq !== null ? ` · seq ${e.seq}` : '';
  return [
    `**${escapeMarkdown(e.kind)}** \`${id.replace(/`/g, "'")}\``,
    '',
    escapeMarkdown(e.label),
    '',
    `line ${e.line}${seq}${time}${status}`,
  ].join('\n');
}
