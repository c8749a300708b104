/**
 * The event bus's bounded subscriptions (RELIABILITY.md §6): a reader that keeps up gets every item in
 * order; one that falls `maxQueued` behind is dropped (queue released, unsubscribed, handler told
 * once) instead of buffering without bound.
 */
import { describe, expect, it } from 'vitest';
import { asSubscriber, EventBus, SlowConsumerError } from '../../runtime/events/bus.js';

describe('EventBus subscriptions', () => {
  it('deliver every item, in order, to a reader that keeps up', async () => {
    const bus = new EventBus({ maxQueued: 2 });
    const items = bus.subscribe<number>('topic');
    const received: number[] = [];
    for (let index = 0; index < 50; index += 1) {
      const next = items.next();
      bus.publish('topic', index);
      received.push((await next).value as number);
    }
    expect(received).toEqual(Array.from({ length: 50 }, (_, index) => index));
  });

  it('hold up to maxQueued unread items, then drop the subscriber and tell its handler once', async () => {
    const bus = new EventBus({ maxQueued: 3 });
    const dropped: SlowConsumerError[] = [];
    const slow = asSubscriber(
      (error) => dropped.push(error),
      () => bus.subscribe<number>('topic'),
    );
    const other = bus.subscribe<number>('other');
    for (let index = 0; index < 3; index += 1) bus.publish('topic', index);
    expect(dropped).toEqual([]);
    for (let index = 3; index < 1000; index += 1) bus.publish('topic', index);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ topic: 'topic', limit: 3 });
    await expect(slow.next()).rejects.toBeInstanceOf(SlowConsumerError);
    // The other topic's subscriber is untouched.
    const next = other.next();
    bus.publish('other', 7);
    expect(await next).toEqual({ value: 7, done: false });
  });

  it('end a reader waiting on next() when it returns', async () => {
    const bus = new EventBus();
    const items = bus.subscribe<number>('topic');
    const pending = items.next();
    await items.return?.();
    expect(await pending).toEqual({ value: undefined, done: true });
  });
});
