/**
 * Lets the browser run other work (input, paint) before the app goes on: the app's start is
 * a chain of steps, and awaiting this between them makes each step a task of its own rather
 * than one long task that blocks a phone for its whole length (Lighthouse TBT). Uses
 * `scheduler.yield()` where the browser has it (the continuation keeps its priority), else a
 * message-channel task (no 4 ms timer clamping).
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
