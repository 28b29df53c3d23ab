export * from './sign.ts';
export * from './deliver.ts';
export * from './job.ts';
