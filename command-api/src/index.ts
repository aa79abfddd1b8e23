// What scripts and browser tests use of the command side (the processes start from @evo/server).
export { uploadVideo, registerUser } from './identity/commands';
export { passwordHasher } from './identity/passwords';
export { findMemberBy } from './identity/members';
export { AUTH_ROUTE_MESSAGES } from './identity/routes';

// What the composition root (@evo/server) builds the API from, and the command code the workers
// service runs (gift credits, closing a wallet, erasing a video's files).
export type { AppDeps } from './deps';
export { createApp } from './app';
export { Sessions } from './http/session';
export { createSocketServer } from './http/socket';
export { ServedHosts } from './http/host-guard';
export { UploadStore } from './uploads/upload-store';
export { ensureAdmin } from './identity/commands';
export { secureDemoAccounts } from './seed/demo-accounts';
export { seedDemoData } from './seed/demo-data';
export {
  CatalogueRepository,
  WalletRepository,
  ensureGiftCatalogue,
  ledgerRepositories,
  type WalletOutcome,
} from './coins/wallets';
export { reconcileLedger } from './ledger/reconcile';
export { GiftCreditProcess, type TransitState } from './gifts/gift-credits';
export { eraseVideoFiles, posterName, videoFileName, videoFilePath, videoIdOfPoster } from './videos/video-files';
