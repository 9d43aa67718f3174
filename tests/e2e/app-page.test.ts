/**
 * The shared page driver (src/bench/app-page.ts) keeps its browser off the network but for
 * 127.0.0.1: a server listening on every interface of this machine is reached on 127.0.0.1 and
 * never on the machine's own non-loopback address, although nothing else stands in the way there.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useChromium } from '../support/e2e';

/** This machine's first IPv4 address that is not loopback, if it has one. */
const outside = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('the page driver\'s browser', () => {
  const chromium = useChromium();
  let server: Server;
  let port: number;
  const reached: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      reached.push(req.headers.host ?? '');
      res.setHeader('content-type', 'text/html').end('<!doctype html><title>reached</title>');
    });
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('reaches a local server on 127.0.0.1', async () => {
    const page = await (await chromium.browser()).newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    expect(await page.title()).toBe('reached');
    expect(reached).toContain(`127.0.0.1:${port}`);
    await page.close();
  });

  it.skipIf(!outside)(`does not reach the same server on this machine's own address (${outside ?? 'none'})`, async () => {
    reached.length = 0;
    const page = await (await chromium.browser()).newPage();
    const error = await page.goto(`http://${outside}:${port}/`).then(() => null, (e: Error) => e.message);
    expect(error).toMatch(/net::ERR_/);
    expect(reached).toEqual([]);
    await page.close();
  });
});
