'use strict';

// A client of its own for the cached reads timed beside attacks (tests/robustness/attack-support.ts):
// sends GET to the URL in its argument again and again, `count` times or until told to stop, and
// reports each read's milliseconds. It runs apart from the test process, whose heap holds everything
// the file loaded and sent: that process's garbage collector stopped it for up to 160 ms in a full
// run, and those pauses were timed as waits of the service.

let stopping = false;
process.on('message', (message) => {
  if (message.type === 'stop') stopping = true;
});
process.on('disconnect', () => process.exit(0));

(async () => {
  const { url, count } = JSON.parse(process.argv[2]);
  const read = async () => {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`the cached read answered ${response.status}`);
    return performance.now() - started;
  };
  // A new process's first fetches load and compile the HTTP client and open the connection (about
  // 50 ms for the first, then tens of ms while the client is still cold): not timed.
  for (let warm = 0; warm < 5; warm += 1) await read();
  const reads = [];
  process.send({ type: 'reading' });
  do reads.push(await read());
  while (count === null ? !stopping : reads.length < count);
  process.send({ type: 'reads', reads }, () => process.exit(0));
})().catch((error) => {
  process.send({ type: 'failed', message: String(error?.message ?? error) }, () => process.exit(1));
});
