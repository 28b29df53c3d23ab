export { createMetrics, secondsSince, type Metrics } from './registry.ts';
export { observeEngine, type ObserveOptions } from './observe.ts';
