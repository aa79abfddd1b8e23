export * from './port';
export { InProcessJobQueue, type InProcessJobQueueOptions, type JobRetention } from './in-process-job-queue';
export { BullMqJobQueue, type BullMqJobQueueOptions } from './bullmq-job-queue';
