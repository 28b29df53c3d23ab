export * from './job-kind.ts';
export * from './job-queue.ts';
