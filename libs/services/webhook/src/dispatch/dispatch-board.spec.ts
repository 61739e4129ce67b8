import type { ClaimedDelivery } from './delivery.repository';
import { DispatchBoard } from './dispatch-board';

const delivery = (endpointId: string, n: number): ClaimedDelivery => ({
  id: `whevent_${endpointId}_${n}`,
  endpointId,
  payload: '{}',
  attemptCount: 0,
  url: 'https://example.com',
  secretCiphertext: 'c',
  leasedAt: 0,
});
const drain = (board: DispatchBoard) => {
  const started: string[] = [];
  for (let d = board.next(); d; d = board.next()) started.push(d.id);
  return started;
};

describe('DispatchBoard', () => {
  it('takeWaitingOf hands back only the waiting deliveries of one endpoint and frees their room', () => {
    const board = new DispatchBoard(4, 1);
    board.add([delivery('a', 1), delivery('a', 2), delivery('a', 3), delivery('b', 1), delivery('b', 2)]);
    expect(drain(board)).toEqual(['whevent_a_1', 'whevent_b_1']);
    const roomBefore = board.room;
    expect(board.takeWaitingOf('a').map((d) => d.id)).toEqual(['whevent_a_2', 'whevent_a_3']);
    expect(board.takeWaitingOf('a')).toEqual([]);
    expect(board.queued).toBe(1);
    expect(board.room).toBe(roomBefore + 2);
    board.done(delivery('a', 1));
    board.done(delivery('b', 1));
    // a's running attempt ended; nothing of a is started again.
    expect(drain(board)).toEqual(['whevent_b_2']);
  });

  it('starts at most perEndpoint per endpoint and maxInFlight in all, endpoints in turn', () => {
    const board = new DispatchBoard(3, 2);
    board.add([delivery('a', 1), delivery('a', 2), delivery('a', 3), delivery('b', 1), delivery('b', 2)]);
    expect(drain(board)).toEqual(['whevent_a_1', 'whevent_b_1', 'whevent_a_2']);
    expect(board.inFlight).toBe(3);
    expect(board.queued).toBe(2);
    board.done(delivery('a', 1));
    // a has 1 running (cap 2) but b is next in line.
    expect(drain(board)).toEqual(['whevent_b_2']);
    board.done(delivery('b', 1));
    expect(drain(board)).toEqual(['whevent_a_3']);
  });

  it('lets each endpoint hold prefetch × its cap, and the process prefetch × maxInFlight', () => {
    const board = new DispatchBoard(4, 2, 2);
    expect(board.room).toBe(8);
    board.add([delivery('a', 1), delivery('a', 2), delivery('a', 3)]);
    drain(board);
    expect(board.busy()).toEqual(new Map([['a', 1]]));
    board.add([delivery('a', 4)]);
    expect(board.busy()).toEqual(new Map([['a', 0]]));
    expect(board.room).toBe(4);
  });

  it('hands back what has not started', () => {
    const board = new DispatchBoard(1, 1);
    board.add([delivery('a', 1), delivery('a', 2), delivery('b', 1)]);
    expect(drain(board)).toEqual(['whevent_a_1']);
    expect(
      board
        .takeWaiting()
        .map((d) => d.id)
        .sort(),
    ).toEqual(['whevent_a_2', 'whevent_b_1']);
    expect(board.queued).toBe(0);
    board.done(delivery('a', 1));
    expect(board.inFlight).toBe(0);
    expect(board.busy().size).toBe(0);
  });
});

describe('DispatchBoard reservations (hand-off from the intake)', () => {
  it('reserves within the hand-off depth in all and per endpoint', () => {
    // Hand-off depth 2: 2 in flight × 2 = 4 held in all; 1 per endpoint × 2 = 2 held per endpoint.
    const board = new DispatchBoard(2, 1, 2, 2);
    expect(board.reserve(['a', 'a', 'a', 'b'])).toEqual([true, true, false, true]);
    expect(board.reserve(['c', 'c'])).toEqual([true, false]);
    expect(board.reserve(['d'])).toEqual([false]);
  });

  it('keeps claims and hand-offs apart: each has its own room, however full the other is', () => {
    // Claims: 2 in flight × prefetch 2 = 4 held, 2 per endpoint; hand-offs: × 8 = 16 held, 8 per endpoint.
    const board = new DispatchBoard(2, 1, 2, 8);
    expect(board.reserve(Array<string>(9).fill('a'))).toEqual([...Array<boolean>(8).fill(true), false]);
    expect(board.reserve(Array<string>(9).fill('b'))).toEqual([...Array<boolean>(8).fill(true), false]);
    expect(board.reserve(['c'])).toEqual([false]);
    // Queued deliveries and retries still get claimed beside a full hand-off window.
    expect(board.room).toBe(4);
    expect(board.busy().size).toBe(0);
    board.add(
      Array.from({ length: 8 }, (_, i) => delivery('a', i)),
      true,
    );
    board.add([delivery('a', 100), delivery('a', 101)]);
    expect(board.room).toBe(2);
    expect(board.busy()).toEqual(new Map([['a', 0]]));
    // Hand-off room frees only as handed-off deliveries finish, claim room as claimed ones do.
    const started = board.next()!;
    expect(started.id).toBe('whevent_a_0');
    board.done(started);
    expect(board.reserve(['a', 'a'])).toEqual([true, false]);
    expect(board.room).toBe(2);
    const rest = board.takeWaiting();
    expect(rest).toHaveLength(9);
    expect(board.room).toBe(4);
    expect(board.busy().size).toBe(0);
  });

  it('turns a reservation into a waiting delivery when it arrives, and frees it when released', () => {
    const board = new DispatchBoard(2, 1, 2, 2);
    board.reserve(['a', 'b', 'b']);
    board.add([delivery('a', 1)], true);
    expect(board.queued).toBe(1);
    expect(board.reserve(['b'])).toEqual([false]);
    board.release(['b', 'b']);
    expect(board.reserve(['b', 'b', 'b'])).toEqual([true, true, false]);
    expect(drain(board)).toEqual(['whevent_a_1']);
    // Releasing more than was reserved changes nothing.
    board.release(['a', 'a']);
    expect(board.reserve(['a', 'a'])).toEqual([true, false]);
  });
});
