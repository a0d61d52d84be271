// The theme variables live with the viewer (the HTML report uses them too); the harness keeps this name.
export * from '../../src/viewer/webviewThemes';
