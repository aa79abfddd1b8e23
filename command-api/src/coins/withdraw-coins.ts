import type { z } from 'zod';
import { WithdrawBody } from '@evo/contracts';
import type { AppDeps } from '../deps';
import { walletCommandRoute, type WalletCommandHandler, type WalletRequests } from './wallets';

/** POST /api/coins/withdraw */
export const withdrawCoinsRoute = (deps: AppDeps, requests: WalletRequests) =>
  walletCommandRoute(deps, requests, WithdrawBody, withdrawCoins);

/** Earned coins paid out (the only ones a withdrawal takes). */
export const withdrawCoins: WalletCommandHandler<z.output<typeof WithdrawBody>> = (requests, userId, body, ctx) =>
  requests.moveOwnCoins(userId, body.user_email, body.amount, 'withdraw', ctx);
