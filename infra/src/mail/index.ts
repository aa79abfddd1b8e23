export * from './port';
export * from './log-mailer';
export * from './smtp-mailer';
