// webview entry: placeholder until the editor lands
