// The poll-or-wake-up wait of the background loops (webhook delivery, monitor scheduling): a loop
// sleeps until its poll interval passes or something wakes it, and a wake-up that comes while it
// is busy is kept, so its next sleep returns at once instead of missing it.
export interface WakeableSleep {
  sleep(ms: number): Promise<void>;
  wake(): void;
}

export function wakeableSleep(): WakeableSleep {
  let wakeSleeper: (() => void) | undefined;
  let woken = false;
  return {
    sleep(ms) {
      if (woken) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.max(0, ms));
        function done() {
          clearTimeout(timer);
          wakeSleeper = undefined;
          woken = false;
          resolve();
        }
        wakeSleeper = done;
      });
    },
    wake() {
      woken = true;
      wakeSleeper?.();
    },
  };
}
