import type { HostMessage } from '../../src/protocol';
import type { SessionHost } from '../../src/viewer/sessionHost';

/** A viewer host that records what the session asks of it: the messages posted, the files opened, the lines revealed. */
export interface RecordingHost extends SessionHost {
  sent: HostMessage[];
  /** Paths `openTrace` was asked to open. */
  opened: string[];
  /** `revealInTextEditor` calls: the line, and the file when it is not the trace's own. */
  revealed: [number, string | undefined][];
}

/** A {@link RecordingHost}; what it does not record does nothing. */
export function recordingHost(): RecordingHost {
  const sent: HostMessage[] = [];
  const opened: string[] = [];
  const revealed: [number, string | undefined][] = [];
  const none = (): undefined => undefined;
  return {
    sent, opened, revealed,
    post: (m) => sent.push(m),
    revealInTextEditor: (line, path) => revealed.push([line, path]),
    copy: none, openExternal: none, runChecks: none, openAsText: none, reload: none, openBlob: none,
    openTrace: (p) => opened.push(p),
  };
}
