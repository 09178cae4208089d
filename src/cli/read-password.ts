// Where the CLI takes a new user's password from: AUDIT_NEW_USER_PASSWORD, or stdin. Never an
// argument: argv is visible to every user of the machine (ps, /proc) and lands in shell history.
import { terminalText } from './terminal-text.ts';

/** What an operator did wrong in supplying the password: reported in one line, exit 1. */
export class PasswordInputError extends Error {}

/**
 * The password from AUDIT_NEW_USER_PASSWORD when set; else the first line of stdin when it is a
 * pipe or file (`printf '%s\n' "$PW" | …`); else, at a terminal, typed twice without echo.
 */
export async function readNewPassword(env: NodeJS.ProcessEnv, label: string): Promise<string> {
  const fromEnv = env.AUDIT_NEW_USER_PASSWORD;
  if (fromEnv) return fromEnv;
  if (process.stdin.isTTY) {
    const first = await readHidden(`New password for ${terminalText(label)}: `);
    const second = await readHidden('Repeat it: ');
    if (first !== second) throw new PasswordInputError('the two passwords differ; nothing was changed');
    return first;
  }
  const input = await readAll(process.stdin);
  const line = input.split(/\r?\n/, 1)[0] ?? '';
  if (line === '') {
    throw new PasswordInputError('no password: set AUDIT_NEW_USER_PASSWORD, or pipe the password on stdin (never as an argument)');
  }
  return line;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}

/** One line from the terminal with echo off (raw mode): Enter ends it, Ctrl-C cancels. */
function readHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (outcome: () => void) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      outcome();
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish(() => resolve(value));
        if (char === '\u0003') return finish(() => reject(new PasswordInputError('cancelled; nothing was changed')));
        if (char === '\u007f' || char === '\b') value = [...value].slice(0, -1).join('');
        else value += char;
      }
    };
    input.on('data', onData);
  });
}
