/**
 * A realistic embedded log of any length for the restart benchmark (scripts/bench-restart.ts),
 * written through the real deciders: members register (pseudo and e-mail reservations, then the
 * account), upload and get their videos processed, log in, follow, like, comment, write to those
 * they follow, get coins and send gifts (each credited to its receiver, as the gift-credit process
 * does). Stream states are kept in memory (this generator is the only writer) instead of being read
 * back before each command, and appends are issued many at a time so that SqliteEventStore's group
 * commit puts hundreds of them in one transaction: the events are the ones the command handlers
 * would write, at a rate a benchmark can afford for millions of events.
 *
 * Numeric ids (videos, comments, messages, gifts) come from counters of this generator, not from
 * the sequence streams: the benchmark only reads the product after generating.
 */
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_GIFT_CATALOGUE,
  GIFT_CATALOGUE_STREAM,
  catalogueDecider,
  commentDecider,
  commentStream,
  conversationDecider,
  conversationStream,
  followDecider,
  followingStream,
  likeDecider,
  likeStream,
  reservationDecider,
  reservationStream,
  userDecider,
  userStream,
  videoDecider,
  videoStream,
  walletDecider,
  walletStream,
  type Decider,
  type DomainEvent,
  type GiftSent,
  type VideoState,
} from '@evo/domain';
import { toNewEvents, type CommandContext, type EventStore } from '@evo/infra';

type Head = { state: unknown; revision: number };

/** Deterministic pseudo-random numbers (the same log for the same seed). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class HistoryWriter {
  private readonly heads = new Map<string, Head>();
  private pending: Promise<unknown>[] = [];
  private readonly random = rng(42);
  private readonly members: string[] = [];
  private readonly videos: number[] = [];
  private readonly following = new Map<string, string[]>();
  private nextVideo = 1;
  private nextComment = 1;
  private nextMessage = 1;
  private nextTx = 1;
  private clock = Date.UTC(2025, 0, 1);
  private gift: { id: number; name: string; emoji: string; coinCost: number } | undefined;
  /** events issued so far (appended once flush() resolved) */
  written = 0;

  constructor(private events: EventStore) {}

  /** continue on another handle of the same log (after the file was closed and copied) */
  reopen(events: EventStore): void {
    this.events = events;
  }

  private ctx(userId?: string): CommandContext {
    this.clock += 7_000;
    return { userId, correlationId: randomUUID(), now: new Date(this.clock) };
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }

  /** decide against the stream's state kept here, append without waiting (grouped by the store) */
  private async run<C, E extends DomainEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
    command: C,
    ctx: CommandContext,
    keep = true,
  ): Promise<E[]> {
    const head = this.heads.get(streamId) ?? { state: decider.initialState(), revision: -1 };
    const events = decider.decide(command, head.state as S);
    if (events.length === 0) return events;
    this.pending.push(
      this.events.append(streamId, toNewEvents(events, streamId, ctx), head.revision < 0 ? 'no_stream' : head.revision),
    );
    head.state = events.reduce((s, e) => decider.evolve(s, e), head.state as S);
    head.revision += events.length;
    // streams written once (a like) need not stay in memory
    if (keep) this.heads.set(streamId, head);
    this.written += events.length;
    if (this.pending.length >= 4000) await this.flush();
    return events;
  }

  async flush(): Promise<void> {
    const p = this.pending;
    this.pending = [];
    await Promise.all(p);
  }

  private state<S>(streamId: string): S {
    return this.heads.get(streamId)?.state as S;
  }

  private async catalogue(): Promise<void> {
    await this.run(
      GIFT_CATALOGUE_STREAM,
      catalogueDecider,
      { type: 'SeedCatalogue', gifts: [...DEFAULT_GIFT_CATALOGUE] },
      this.ctx(),
    );
    const state = this.state<{ gifts: Record<number, { id: number; name: string; emoji: string; coinCost: number }> }>(
      GIFT_CATALOGUE_STREAM,
    );
    const g = Object.values(state.gifts)[0];
    this.gift = { id: g.id, name: g.name, emoji: g.emoji, coinCost: g.coinCost };
  }

  /** one member's life: about 110 events */
  private async member(i: number): Promise<void> {
    const userId = randomUUID();
    const pseudo = `Membre${i}`;
    const email = `membre${i}@bench.fr`;
    for (const [kind, value] of [
      ['pseudo', pseudo],
      ['email', email],
    ] as const) {
      const c = this.ctx(userId);
      await this.run(
        reservationStream(kind, value),
        reservationDecider,
        { type: 'Reserve', kind, value, userId, now: c.now, ownerRegistered: false },
        c,
        false,
      );
    }
    await this.run(
      userStream(userId),
      userDecider,
      {
        type: 'RegisterUser',
        userId,
        email,
        pseudo,
        passwordHash: 'h',
        bio: `Bio de ${pseudo}`,
        profilePicture: 'default.png',
      },
      this.ctx(userId),
    );
    for (let v = 0; v < 1 + (i % 2); v++) {
      const videoId = this.nextVideo++;
      await this.run(
        videoStream(videoId),
        videoDecider,
        {
          type: 'UploadVideo',
          videoId,
          ownerId: userId,
          title: `Vidéo ${videoId} de ${pseudo}`,
          description: 'Une courte vidéo',
          filePath: `/uploads/videos/${videoId}.mp4`,
          mimeType: 'video/mp4',
          sizeBytes: 100_000,
        },
        this.ctx(userId),
      );
      await this.run(
        videoStream(videoId),
        videoDecider,
        {
          type: 'RecordProcessing',
          videoId,
          durationSeconds: 12,
          sizeBytes: 90_000,
          codec: 'h264',
          width: 720,
          height: 1280,
          posterPath: `/uploads/posters/${videoId}.jpg`,
        },
        this.ctx(),
      );
      this.videos.push(videoId);
    }
    for (let l = 0; l < 5; l++)
      await this.run(userStream(userId), userDecider, { type: 'RecordLogin', userId }, this.ctx(userId));
    if (this.members.length === 0) {
      this.members.push(userId);
      return;
    }
    const followees: string[] = [];
    for (let f = 0; f < Math.min(20, this.members.length); f++) {
      const other = this.pick(this.members);
      const c = this.ctx(userId);
      const done = await this.run(
        followingStream(userId),
        followDecider,
        { type: 'Follow', followerId: userId, followeeId: other, now: c.now },
        c,
      );
      if (done.length > 0) followees.push(other);
    }
    this.following.set(userId, followees);
    const liked = new Set<number>();
    for (let l = 0; l < 40; l++) {
      const videoId = this.pick(this.videos);
      if (liked.has(videoId)) continue;
      liked.add(videoId);
      const c = this.ctx(userId);
      await this.run(
        likeStream(videoId, userId),
        likeDecider,
        { type: 'Like', videoId, userId, video: this.state<VideoState>(videoStream(videoId)), now: c.now },
        c,
        false,
      );
    }
    for (let k = 0; k < 15; k++) {
      const videoId = this.pick(this.videos);
      const commentId = this.nextComment++;
      await this.run(
        commentStream(commentId),
        commentDecider,
        {
          type: 'PostComment',
          commentId,
          videoId,
          authorId: userId,
          parentId: null,
          content: `Bravo pour cette vidéo n°${videoId} !`,
          video: this.state<VideoState>(videoStream(videoId)),
          parent: null,
        },
        this.ctx(userId),
        false,
      );
    }
    if (followees.length > 0) {
      const to = followees[0];
      for (let m = 0; m < 3; m++) {
        await this.run(
          conversationStream(userId, to),
          conversationDecider,
          {
            type: 'SendMessage',
            messageId: this.nextMessage++,
            content: `Salut, message ${m}`,
            senderId: userId,
            receiverId: to,
            senderFollowsReceiver: true,
          },
          this.ctx(userId),
        );
      }
    }
    await this.run(
      walletStream(userId),
      walletDecider,
      { type: 'AddCoins', userId, txId: this.nextTx++, amount: 1000 },
      this.ctx(userId),
    );
    for (let g = 0; g < 10; g++) {
      const receiverId = this.pick(this.members);
      const [sent] = await this.run(
        walletStream(userId),
        walletDecider,
        { type: 'SendGift', userId, giftId: this.nextTx++, receiverId, gift: this.gift!, feePercent: 0 },
        this.ctx(userId),
      );
      const data = (sent as unknown as GiftSent).data;
      await this.run(
        walletStream(receiverId),
        walletDecider,
        { type: 'ReceiveGift', userId: receiverId, sent: data, sentAt: new Date(this.clock).toISOString() },
        this.ctx(),
      );
    }
    this.members.push(userId);
  }

  private started = false;
  private index = 0;

  /** write members until the log holds at least `events` events (this generator's) */
  async writeUntil(events: number, onProgress?: (written: number) => void): Promise<void> {
    if (!this.started) {
      this.started = true;
      await this.catalogue();
    }
    while (this.written < events) {
      await this.member(this.index++);
      if (this.index % 200 === 0) onProgress?.(this.written);
    }
    await this.flush();
  }
}
