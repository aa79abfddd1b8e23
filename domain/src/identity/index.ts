export * from './events';
export * from './rules';
export * from './user-decider';
export * from './reservation-decider';
export * from './skeleton';
export * from './password-reset';
export * from './account-deletion';
