// The few `process` fields the core reads, for the report page.
export const process = { env: {} as Record<string, string | undefined>, platform: 'browser', versions: {}, cwd: () => '/', on: () => undefined, stdout: { on: () => undefined } };
