// What scripts and browser tests use of the command side (the servers start from main.ts).
export { uploadVideo, registerUser } from './identity/commands';
export { hashPassword } from './identity/passwords';
export { findMemberBy } from './identity/members';
export { AUTH_ROUTE_MESSAGES } from './identity/routes';
