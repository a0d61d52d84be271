import type { ModelPrice } from '../core/usage/prices';

/**
 * The user's prices (`agentTrace.pricing`), which the editor layer sets when the extension starts and when the
 * setting changes; headers computed afterwards use them. Kept here so the viewer stays free of `vscode`.
 */
let current: Readonly<Record<string, ModelPrice>> = {};

/** Sets the prices the viewer's headers use. */
export function setViewerPricing(prices: Readonly<Record<string, ModelPrice>>): void {
  current = prices;
}

/** The prices set by {@link setViewerPricing} (none until the editor layer sets them). */
export function viewerPricing(): Readonly<Record<string, ModelPrice>> {
  return current;
}
