// `node scripts/make-og-image.ts`: draws public/og.png, the social preview card (1200×630), in Chromium.
// Run again when the card's words change; the PNG is committed.
import { chromium } from 'playwright-core';
import { findChromium } from './lib/chromium.ts';

const html = `<!doctype html><html><body style="margin:0;width:1200px;height:630px;background:#14161a;color:#ffcf4a;
font-family:'DejaVu Sans Mono',monospace;display:flex;flex-direction:column;justify-content:center;padding:0 80px;box-sizing:border-box">
<div style="font-size:72px;font-weight:700;letter-spacing:4px">DEPARTURES BOARD</div>
<div style="font-size:26px;color:#d9d3c2;margin-top:24px;line-height:1.4">Official usage-limit resets of three AI coding-tool providers,<br>with an honest cadence estimate of the next one.</div>
<div style="font-size:26px;margin-top:48px;color:#7ee29b">● RESET NOW &nbsp; <span style="color:#ffcf4a">○ WAITING</span> &nbsp; <span style="color:#ff9f9f">▲ OVERDUE</span></div>
</body></html>`;

const found = await findChromium();
const browser = await chromium.launch({
  executablePath: found.executablePath,
  env: { ...process.env, ...found.env },
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await page.setContent(html);
await page.screenshot({ path: 'public/og.png' });
await browser.close();
console.log('public/og.png written');
