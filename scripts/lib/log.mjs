import { readFileSync } from 'node:fs';

// Plain, greppable progress lines: CI logs are read top to bottom, so every
// step announces itself with a header and every service says where it runs.
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);

export function header(title) {
  console.log(`\n${paint('1;36', `━━ ${title}`)}`);
}

export function info(message) {
  console.log(paint('2', `   ${message}`));
}

export function warn(message) {
  console.log(paint('33', `   ! ${message}`));
}

export function fail(message) {
  console.error(paint('31', `✖ ${message}`));
}

export function seconds(sinceMs) {
  return `${((Date.now() - sinceMs) / 1000).toFixed(1)} s`;
}

/** An error carrying the end of a service's log, printed only when something failed. */
export function withLog(message, logFile, lines = 40) {
  let tail = '';
  try {
    tail = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    // no log written yet
  }
  return new Error(tail ? `${message}; last lines of ${logFile}:\n${tail}` : message);
}
