import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { canPrompt, InputCancelledError, ttyPrompt, type ConfigInput } from '../../src/config/index.js';

/** A fake TTY stdin that records raw mode, and a stderr that records what was written. */
function terminal() {
  const input = Object.assign(new EventEmitter(), {
    isTTY: true,
    raw: [] as boolean[],
    setRawMode(mode: boolean) {
      this.raw.push(mode);
    },
    resume() {},
    pause() {},
  });
  let written = '';
  const output = { isTTY: true, write: (s: string) => void (written += s) };
  return { input, output, written: () => written, type: (s: string) => input.emit('data', Buffer.from(s)) };
}

const key: ConfigInput = { id: 'api-key', type: 'promptString', description: 'API key', password: true };

describe('ttyPrompt', () => {
  it('asks on stderr, masks a password, handles Backspace, restores the terminal', async () => {
    const t = terminal();
    const answer = ttyPrompt(t.input, t.output)(key);
    t.type('sx');
    t.type('\u007f');
    t.type('ecret\r');
    await expect(answer).resolves.toBe('secret');
    expect(t.written()).toBe('API key (api-key): **\b \b*****\n');
    expect(t.input.raw).toEqual([true, false]);
    expect(t.input.listenerCount('data')).toBe(0);
  });

  it('echoes a plain input, offers the default and answers it on an empty line', async () => {
    const t = terminal();
    const answer = ttyPrompt(t.input, t.output)({ id: 'region', type: 'pickString', options: ['eu', 'us'], default: 'eu' });
    t.type('\n');
    await expect(answer).resolves.toBe('eu');
    expect(t.written()).toBe('region [eu | us] [default: eu]: \n');
    const t2 = terminal();
    const typed = ttyPrompt(t2.input, t2.output)({ id: 'region', type: 'promptString' });
    t2.type('us\u001b[A'); // an arrow key is ignored
    t2.type('-west\r');
    await expect(typed).resolves.toBe('us-west');
  });

  it('never shows a password default; strips control characters from the description', async () => {
    const t = terminal();
    const answer = ttyPrompt(t.input, t.output)({ id: 'k', type: 'promptString', password: true, default: 'hunter2', description: 'Key\u001b[31m red' });
    t.type('\r');
    await expect(answer).resolves.toBe('hunter2');
    expect(t.written()).toBe('Key red (k) [default: ****]: \n');
  });

  it('Ctrl-C (and Ctrl-D on an empty line) cancel', async () => {
    const t = terminal();
    const answer = ttyPrompt(t.input, t.output)(key);
    t.type('ab\u0003');
    await expect(answer).rejects.toBeInstanceOf(InputCancelledError);
    expect(t.input.raw).toEqual([true, false]);
    const t2 = terminal();
    const d = ttyPrompt(t2.input, t2.output)(key);
    t2.type('\u0004');
    await expect(d).rejects.toMatchObject({ code: 'MCPI_CANCELLED', inputId: 'api-key' });
  });

  it('canPrompt needs both stdin and stderr to be terminals', () => {
    const t = terminal();
    expect(canPrompt(t.input, t.output)).toBe(true);
    expect(canPrompt({ ...t.input, isTTY: false, on: t.input.on, off: t.input.off, resume() {}, pause() {} }, t.output)).toBe(false);
    expect(canPrompt(t.input, { isTTY: false, write: () => true })).toBe(false);
  });
});
