/**
 * The notification's message without its leading sender pseudo, when it starts with it (else the
 * whole message): the server writes whole sentences ("hugo a aimé ta vidéo") and the list shows
 * the sender apart, as a link, so the pseudo must not be printed twice.
 */
export function messageAfterSender(message: string, senderPseudo: string | undefined): string {
  const pseudo = senderPseudo?.trim();
  if (!pseudo) return message;
  const lead = message.trimStart();
  return lead.startsWith(`${pseudo} `) ? lead.slice(pseudo.length + 1) : message;
}
