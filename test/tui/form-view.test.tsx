import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { Tool } from '../../src/protocol/types.js';
import { useForm } from '../../src/tui/hooks/useForm.js';
import { useKeys } from '../../src/tui/hooks/useKeys.js';
import { ToolDetail } from '../../src/tui/components/ToolDetail.js';
import type { ListenSessionEvent } from '../../src/client/types.js';
import { Feed, KEY, fakeServices, press, renderWith, tool, waitFor } from './helpers.js';

afterEach(() => cleanup());

let lastArgs: unknown;
let lastAction: string | undefined;

function Harness({ t }: { t: Tool }) {
  const form = useForm(t);
  lastArgs = form.args;
  useKeys((input, key) => {
    const a = form.onKey(input, key);
    if (a) lastAction = a;
  });
  return <ToolDetail tool={t} form={form} gone={false} confirmPending={false} width={100} height={20} />;
}

function show(schema: Record<string, unknown>, over: Partial<Tool> = {}) {
  lastArgs = undefined;
  lastAction = undefined;
  const t = tool('t', { inputSchema: schema, ...over });
  return renderWith(<Harness t={t} />, fakeServices(new Feed<ListenSessionEvent>()));
}

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

describe('call form', () => {
  it('one field per property in schema order, required marked, defaults prefilled, description shown', async () => {
    const r = show(obj({ city: { type: 'string', description: 'City name' }, days: { type: 'integer', default: 3 } }, ['city']));
    const f = await waitFor(r, (f) => f.includes('city'));
    const lines = f.split('\n');
    const cityLine = lines.findIndex((l) => l.includes('city*'));
    const daysLine = lines.findIndex((l) => l.includes('days'));
    expect(cityLine).toBeGreaterThan(0);
    expect(daysLine).toBeGreaterThan(cityLine);
    expect(lines[daysLine]).toContain('[3]');
    expect(f).toContain('City name'); // focused field's description
    expect(f).toContain("missing required argument 'city'");
    expect(lastArgs).toEqual({ days: 3 });
  });

  it('string: typing edits, Ajv checks format and pattern as the user types', async () => {
    const r = show(obj({ email: { type: 'string', format: 'email' }, code: { type: 'string', pattern: '^[A-Z]{3}$' } }));
    await waitFor(r, (f) => f.includes('email'));
    await press(r, 'nope');
    let f = await waitFor(r, (f) => f.includes('[nope'));
    expect(f).toMatch(/email must match format "email"/);
    await press(r, KEY.ctrl('u'), 'a@b.co');
    f = await waitFor(r, (f) => f.includes('a@b.co'));
    expect(f).not.toMatch(/must match format/);
    await press(r, KEY.down, 'abc');
    f = await waitFor(r, (f) => f.includes('[abc'));
    expect(f).toMatch(/code must match pattern/);
    expect(f).toContain('pattern ^[A-Z]{3}$');
    await press(r, KEY.backspace, KEY.backspace, KEY.backspace, 'ABC');
    f = await waitFor(r, (f) => f.includes('✓ valid'));
    expect(lastArgs).toEqual({ email: 'a@b.co', code: 'ABC' });
  });

  it('number and integer fields parse and validate', async () => {
    const r = show(obj({ n: { type: 'integer', minimum: 1 } }));
    await waitFor(r, (f) => f.includes('n '));
    await press(r, 'x');
    await waitFor(r, (f) => f.includes('not a number: x'));
    await press(r, KEY.backspace, '1.5');
    await waitFor(r, (f) => f.includes('n must be integer'));
    await press(r, KEY.ctrl('u'), '0');
    await waitFor(r, (f) => f.includes('n must be >= 1'));
    await press(r, KEY.ctrl('u'), '7');
    await waitFor(r, (f) => f.includes('✓ valid'));
    expect(lastArgs).toEqual({ n: 7 });
  });

  it('boolean toggles with Space (optional ones cycle through unset)', async () => {
    const r = show(obj({ loud: { type: 'boolean' } }));
    await waitFor(r, (f) => f.includes('[-] unset'));
    await press(r, ' ');
    await waitFor(r, (f) => f.includes('[x] true'));
    expect(lastArgs).toEqual({ loud: true });
    await press(r, ' ');
    await waitFor(r, (f) => f.includes('[ ] false'));
    expect(lastArgs).toEqual({ loud: false });
    await press(r, ' ');
    await waitFor(r, (f) => f.includes('[-] unset'));
    expect(lastArgs).toEqual({});
  });

  it('enum and oneOf of consts are select lists', async () => {
    const r = show(
      obj(
        {
          unit: { enum: ['c', 'f'] },
          level: {
            oneOf: [
              { const: 1, title: 'Low' },
              { const: 2, title: 'High' },
            ],
          },
        },
        ['level'],
      ),
    );
    await waitFor(r, (f) => f.includes('unit'));
    await press(r, KEY.right);
    await waitFor(r, (f) => f.includes('‹ c ›'));
    await press(r, KEY.right);
    await waitFor(r, (f) => f.includes('‹ f ›'));
    await press(r, KEY.down, KEY.right);
    let f = await waitFor(r, (f) => f.includes('‹ Low ›'));
    expect(f).toContain('Low | High');
    await press(r, KEY.right);
    f = await waitFor(r, (f) => f.includes('‹ High ›'));
    expect(lastArgs).toEqual({ unit: 'f', level: 2 });
  });

  it('nullable fields take an explicit null with Ctrl-N', async () => {
    const r = show(obj({ note: { type: ['string', 'null'] } }, ['note']));
    await waitFor(r, (f) => f.includes('note'));
    await press(r, KEY.ctrl('n'));
    const f = await waitFor(r, (f) => /note\*\s+null/.test(f));
    expect(f).toContain('✓ valid');
    expect(lastArgs).toEqual({ note: null });
    await press(r, KEY.ctrl('n'), 'hi');
    await waitFor(r, (f) => f.includes('[hi'));
    expect(lastArgs).toEqual({ note: 'hi' });
  });

  it('nested objects are indented sub-forms', async () => {
    const r = show(obj({ address: obj({ city: { type: 'string' }, zip: { type: 'string' } }, ['zip']) }, ['address']));
    const f = await waitFor(r, (f) => f.includes('address'));
    const lines = f.split('\n');
    const a = lines.find((l) => l.includes('address*'))!;
    const c = lines.find((l) => l.includes('city'))!;
    expect(c.indexOf('city')).toBeGreaterThan(a.indexOf('address'));
    expect(f).toMatch(/address is missing required property 'zip'/);
    await press(r, KEY.down, KEY.down, '12345');
    await waitFor(r, (f) => f.includes('✓ valid'));
    expect(lastArgs).toEqual({ address: { zip: '12345' } });
  });

  it('arrays: add and remove items', async () => {
    const r = show(obj({ tags: { type: 'array', items: { type: 'string' }, minItems: 1 } }, ['tags']));
    await waitFor(r, (f) => f.includes('[ 0 items ]'));
    await press(r, '+', 'a', KEY.up, '+', 'b');
    let f = await waitFor(r, (f) => f.includes('[ 2 items ]') && f.includes('[b'));
    expect(f).toContain('[0]');
    expect(f).toContain('[1]');
    expect(lastArgs).toEqual({ tags: ['a', 'b'] });
    await press(r, KEY.up, KEY.ctrl('d'));
    f = await waitFor(r, (f) => f.includes('[ 1 item ]'));
    expect(lastArgs).toEqual({ tags: ['b'] });
    await press(r, '-');
    f = await waitFor(r, (f) => f.includes('[ 0 items ]'));
    expect(f).toMatch(/tags must NOT have fewer than 1 items/);
  });

  it('what the form cannot model falls back to a JSON editor for that subtree', async () => {
    const r = show({
      type: 'object',
      $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } },
      properties: {
        shape: {
          anyOf: [
            { type: 'object', properties: { r: { type: 'number' } } },
            { type: 'object', properties: { w: { type: 'number' } } },
          ],
        },
        labels: { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
        tree: { $ref: '#/$defs/Node' },
      },
    });
    let f = await waitFor(r, (f) => f.includes('shape'));
    expect(f).toContain('edited as JSON: anyOf of 2 alternatives');
    await press(r, '{"r":');
    f = await waitFor(r, (f) => f.includes('invalid JSON'));
    await press(r, '2}');
    f = await waitFor(r, (f) => f.includes('✓ valid'));
    expect(lastArgs).toEqual({ shape: { r: 2 } });
    await press(r, KEY.down);
    f = await waitFor(r, (f) => f.includes('edited as JSON: patternProperties'));
    await press(r, KEY.down, KEY.down);
    f = await waitFor(r, (f) => f.includes('recursive $ref'));
  });

  it('a tool without parameters offers a one-key call', async () => {
    const r = show({ type: 'object', additionalProperties: false });
    const f = await waitFor(r, (f) => f.includes('takes no arguments'));
    expect(f).toContain('Enter');
  });

  it('Enter submits, Esc goes back', async () => {
    const r = show(obj({ a: { type: 'string' } }));
    await waitFor(r, (f) => f.includes('a '));
    await press(r, KEY.enter);
    expect(lastAction).toBe('submit');
    await press(r, KEY.esc);
    await expect.poll(() => lastAction, { timeout: 20_000 }).toBe('back');
  });

  it('sanitizes titles, descriptions and enum labels from the server', async () => {
    const r = show(obj({ x: { enum: ['\u001b[31mred'], title: 'X\u001b]0;pwned\u0007', description: 'desc\u001b[2J' } }), { description: 'tool\u001b[H desc' });
    const f = await waitFor(r, (f) => f.includes('tool desc'));
    expect(f).not.toContain('\u001b');
    expect(f).not.toContain('\u0007');
  });

  it('never draws control characters of server-provided defaults', async () => {
    const r = show(obj({ s: { type: 'string', default: 'a\u001b[2Jb' }, n: { type: 'number', default: 'x\u001b]0;t\u0007' } }));
    const f = await waitFor(r, (f) => f.includes('[ab'));
    expect(f).not.toMatch(/[\u001b\u0007]/);
    await press(r, KEY.down);
    const g = await waitFor(r, (f) => f.includes('not a number'));
    expect(g).not.toMatch(/[\u001b\u0007]/);
  });
});
