/**
 * The browser security policy of every reply (docs/security.md "Security headers"): the
 * Content-Security-Policy, the Permissions-Policy, and which API replies count as public
 * reference data that a cache may keep. Pure data and functions; the plugin
 * (src/server/services/security-headers.ts) sends them.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The file, beside the built index.html, where the build (scripts/prerender.ts) writes the
 * `'sha256-…'` sources of every inline script its pages run.
 */
export const SCRIPT_HASHES_FILE = 'csp-script-hashes.json';

/** How long a signed-out visitor's browser or a shared cache may keep public reference data, in seconds. */
export const PUBLIC_REFERENCE_MAX_AGE = 300;

/**
 * The hashes the build wrote for the pages it serves (none without a build: the server then
 * serves the API only, and no page of ours runs an inline script).
 */
export function readScriptHashes(webRoot: string): string[] {
  const file = path.join(webRoot, SCRIPT_HASHES_FILE);
  if (!existsSync(file)) return [];
  const hashes = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(hashes) || !hashes.every((h) => typeof h === 'string' && /^'sha256-[A-Za-z0-9+/]+=*'$/.test(h))) {
    throw new Error(`${file} is not a list of 'sha256-…' sources: rebuild with npm run build`);
  }
  return hashes as string[];
}

/**
 * The Content-Security-Policy directives (helmet's form), with the inline scripts' hashes.
 * @example contentSecurityPolicy(["'sha256-abc='"])['script-src'] // ["'self'", "'unsafe-eval'", "'sha256-abc='"]
 */
export function contentSecurityPolicy(scriptHashes: readonly string[]): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    // Our own files, plus the prerendered pages' inline scripts by hash (never 'unsafe-inline').
    // 'unsafe-eval': the forms validate with ajv (rjsf's validator-ajv8, the same JSON Schemas
    // as the server), which compiles each schema to a function in the browser. It allows no
    // inline or foreign script; precompiled validators would let it go.
    'script-src': ["'self'", "'unsafe-eval'", ...scriptHashes],
    // No on…= handlers, no javascript: URLs.
    'script-src-attr': ["'none'"],
    // Styles inline: Fluent UI's Griffel inserts its rules into <style> elements at run time and
    // writes them into each prerendered page's head, ag-grid's theme and ApexCharts inject
    // <style> elements, and React, ag-grid and ApexCharts set style="" attributes, none of which
    // a hash can name. A style cannot run script; scripts stay hash-only.
    'style-src': ["'self'", "'unsafe-inline'"],
    // data: for icons inlined in CSS (ag-grid), blob: for photos and avatars fetched with the
    // bearer token and shown as object URLs.
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    // The API and the live socket (/gs-guide-websocket): 'self' matches ws:/wss: of this origin.
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    // Forms post here only; OneID is reached by navigation (a link to our /api route that
    // redirects), which form-action does not govern.
    'form-action': ["'self'"],
    // Nobody frames the portal (clickjacking of staff screens); X-Frame-Options for old browsers.
    'frame-ancestors': ["'none'"],
  };
}

/**
 * Powerful features no screen uses are off for the page and anything it embeds. Only names
 * Chromium knows: an unknown one is a console error on every page (Lighthouse counts it).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'magnetometer',
  'microphone',
  'payment',
  'usb',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/** HSTS for replies over TLS: a year. Not `includeSubDomains`: the portal does not own its parent domain's other hosts. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';
