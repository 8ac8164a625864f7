import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import { whenIdle } from '../lib/idle';

/**
 * Short main-thread tasks (Lighthouse TBT): parts of a page drawn one after another, each in a commit of its own.
 * React renders every pending transition together and commits a render in one task, which cannot
 * be split: parts asked for at once (a page's sections, its charts) made one task of 100–400 ms.
 * A part waits for the part that asked before it to be drawn, then for an idle moment.
 */
interface Turns {
  /** Settles when the part that asked last is drawn (or gone). */
  last: Promise<void>;
}

const TurnsContext = createContext<Turns | null>(null);

/** The parts inside (InTurn, useTurn) are drawn in turn, in the order they ask. */
export function TakingTurns({ children }: { children: ReactNode }) {
  const [turns] = useState<Turns>(() => ({ last: Promise.resolve() }));
  return <TurnsContext value={turns}>{children}</TurnsContext>;
}

/**
 * True once this part's turn has come, asked for while `wanted`: the parts that asked before it
 * are drawn and the browser is idle; it turns true in a transition. The next part goes once
 * `drawn` (by default: once the turn has come and been committed). Outside TakingTurns the turn
 * comes at once.
 */
export function useTurn(wanted = true, drawn?: boolean): boolean {
  const turns = useContext(TurnsContext);
  const [turn, setTurn] = useState(() => wanted && !turns);
  const [done] = useState(() => {
    let settle = () => {};
    const promise = new Promise<void>((resolve) => {
      settle = resolve;
    });
    return { promise, settle };
  });
  useEffect(() => {
    if (!wanted) return;
    if (!turns) {
      setTurn(true);
      return;
    }
    let current = true;
    let cancelIdle: (() => void) | undefined;
    const before = turns.last;
    turns.last = before.then(() => done.promise);
    void before.then(() => {
      if (current) cancelIdle = whenIdle(() => startTransition(() => setTurn(true)));
    });
    return () => {
      current = false;
      cancelIdle?.();
      // Gone before drawn (the page left, a view switched): the next part does not wait.
      done.settle();
    };
  }, [wanted, turns, done]);
  const isDrawn = drawn ?? turn;
  // Effects run once the render that drew the part is committed.
  useEffect(() => {
    if (isDrawn) done.settle();
  }, [isDrawn, done]);
  return turn;
}

/** Its children once their turn has come (useTurn); nothing before. */
export function InTurn({ children }: { children: ReactNode }) {
  return useTurn() ? children : null;
}
