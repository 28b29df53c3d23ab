// Preact with htm's tagged templates: components without a JSX compile step.
export { html } from 'htm/preact';
