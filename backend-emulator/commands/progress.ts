/** A one-line progress bar on standard error, only on a terminal and only for large inputs. */
export interface Progress {
  add(bytes: number): void;
  done(): void;
}

const NONE: Progress = { add: () => undefined, done: () => undefined };

/** Payloads at least this large get a bar. */
export const PROGRESS_MIN_BYTES = 4 * 1024 * 1024;

export function progressBar(totalBytes: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY || totalBytes < PROGRESS_MIN_BYTES) return NONE;
  let read = 0;
  let lastDrawn = -1;
  const draw = () => {
    const fraction = Math.min(1, read / totalBytes);
    const percent = Math.floor(fraction * 100);
    if (percent === lastDrawn) return;
    lastDrawn = percent;
    const width = 30;
    const filled = Math.round(fraction * width);
    stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}% of ${(totalBytes / 1048576).toFixed(1)} MiB`);
  };
  return {
    add(bytes) {
      read += bytes;
      draw();
    },
    done() {
      stream.write('\r\x1b[K');
    },
  };
}
