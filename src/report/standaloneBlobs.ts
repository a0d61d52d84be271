/**
 * Blobs for a document made outside VS Code (`agent-trace report --include-blobs`, `export --markdown`): only
 * the format's own blob roots beside the trace, with no workspace folders or `agentTrace.blobRoots` setting.
 */
import { TraceBlobs } from '../viewer/blobResolver';

/** A blob resolver that looks only where the trace's format keeps its blobs. */
export function standaloneBlobs(): TraceBlobs {
  return new TraceBlobs(() => ({ extraRoots: [], workspaceFolders: [] }));
}
