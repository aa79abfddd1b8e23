// The peers' gift send, written as a team would on Emmett: load the sender's wallet stream, check
// the balance, append GiftSent with the expected stream version (retry on a conflict), append
// GiftReceived to the receiver. Bench-only: never part of the product.
//
// POST /wallets/:id/credit { amount }           → 200 (set-up: CoinsAdded)
// POST /gifts/send { sender, receiver, amount } → 200 { balance } | 402 | 409
export function giftApp(express, store, { isConflict, serialise = false }) {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '100kb' }));

  const balanceOf = (events) => {
    let balance = 0;
    for (const { type, data } of events) {
      if (type === 'CoinsAdded' || type === 'GiftReceived') balance += data.amount;
      else if (type === 'GiftSent') balance -= data.amount;
    }
    return balance;
  };

  // Emmett 0.38.5's SQLite store shares one connection and closes it after every call: concurrent
  // calls fail (SQLITE_BUSY, "handle closed"), so its users must run one call at a time
  let queue = Promise.resolve();
  const run = (fn) => {
    if (!serialise) return fn();
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };

  app.post('/wallets/:id/credit', async (req, res) => {
    try {
      await run(() =>
        store.appendToStream(`wallet-${req.params.id}`, [
          { type: 'CoinsAdded', data: { amount: Number(req.body.amount) } },
        ]),
      );
      res.json({ ok: true });
    } catch (e) {
      res.status(500).json({ error: String(e) });
    }
  });

  app.post('/gifts/send', async (req, res) => {
    const { sender, receiver, amount } = req.body ?? {};
    if (
      typeof sender !== 'string' ||
      typeof receiver !== 'string' ||
      sender === receiver ||
      !Number.isInteger(amount) ||
      amount <= 0
    ) {
      res.status(400).json({ error: 'Requête invalide.' });
      return;
    }
    try {
      const answer = await run(async () => {
        for (let attempt = 1; ; attempt++) {
          const { events, currentStreamVersion } = await store.readStream(`wallet-${sender}`);
          const balance = balanceOf(events);
          if (balance < amount) return { status: 402, body: { error: 'Solde insuffisant.' } };
          const giftId = crypto.randomUUID();
          try {
            await store.appendToStream(`wallet-${sender}`, [{ type: 'GiftSent', data: { giftId, receiver, amount } }], {
              expectedStreamVersion: currentStreamVersion,
            });
          } catch (e) {
            if (isConflict(e) && attempt < 20) continue;
            if (isConflict(e)) return { status: 409, body: { error: 'Conflit.' } };
            throw e;
          }
          // no expected version here, yet two concurrent appends to one receiver's stream can still
          // collide on its next position (PostgreSQL): append again
          for (let credit = 1; ; credit++) {
            try {
              await store.appendToStream(`wallet-${receiver}`, [
                { type: 'GiftReceived', data: { giftId, sender, amount } },
              ]);
              break;
            } catch (e) {
              if (!isConflict(e) || credit >= 20) throw e;
            }
          }
          return { status: 200, body: { balance: balance - amount } };
        }
      });
      res.status(answer.status).json(answer.body);
    } catch (e) {
      res.status(500).json({ error: String(e) });
    }
  });
  return app;
}
