// A leaf module (no imports), so the protocol and the webview can name the check modes without pulling in
// the check engine and its Node dependencies.

/** The check modes, for code that lists or validates them (the webview message schema). */
export const CHECK_MODES = ['verify', 'check'] as const;
/** Verification proves integrity (hashes, chains, sequence); conformance checks the runtime's rules. */
export type CheckMode = (typeof CHECK_MODES)[number];
