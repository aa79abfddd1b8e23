import type { Message } from './api';

/** A message from `from` to `to` (pseudos; emails are `<pseudo>@x.fr`), for the messaging tests. */
export const testMessage = (id: number, from: string, to: string, at: string, content = `m${id}`): Message => ({
  id,
  sender_email: `${from}@x.fr`,
  receiver_email: `${to}@x.fr`,
  sender_pseudo: from,
  receiver_pseudo: to,
  sender_profile_picture: '',
  receiver_profile_picture: '',
  content,
  created_at: at,
});
