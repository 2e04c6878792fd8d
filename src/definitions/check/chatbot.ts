/**
 * `npm run check` rule for the chat bot screen (kind `chatbot`, options per
 * schemas/_meta/chatbot.schema.json, already valid against it): its FAQ screen is a page with a
 * contentKey, its services screen a page with cards, the appeal route is a screen's route and
 * its field a string field of that screen's entity, and every key of `entries` names an entry
 * the base generates (a FAQ paragraph key or a card's route). Messages name the screen file and
 * the JSON pointer.
 */
import type { ChatbotOptions } from '../../generated/meta.ts';
import { shellLocaleFile } from '../locales.ts';
import type { CheckContext, CheckRule } from './context.ts';
import { unknownNameMessage } from './suggest.ts';
import { escapeSegment } from '../../shared/pointer.ts';

interface PageOptions {
  contentKey?: string;
  cards?: Array<{ route: string }>;
}

/** The paragraph keys (not title, not headings) at a dotted key of the English shell texts. */
function paragraphKeys(ctx: CheckContext, key: string): string[] | undefined {
  const file = shellLocaleFile('en');
  if (!ctx.sources.has(file)) return undefined;
  let node: unknown = ctx.json(file);
  for (const part of key.split('.'))
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  if (!node || typeof node !== 'object') return undefined;
  return Object.keys(node).filter((k) => k !== 'title' && !k.startsWith('heading'));
}

function checkChatbot(ctx: CheckContext, file: string, o: ChatbotOptions): void {
  const screens = new Map(ctx.screens.map(({ screen }) => [screen.id, screen]));
  const pages = [...screens.values()].filter((s) => s.kind === 'page').map((s) => s.id);
  const known = new Set<string>();

  const faq = screens.get(o.faqScreen);
  const contentKey = faq?.kind === 'page' ? (faq.options as PageOptions | undefined)?.contentKey : undefined;
  if (!faq || faq.kind !== 'page')
    ctx.report(file, '/options/faqScreen', unknownNameMessage('screen', o.faqScreen, 'a page screen', pages));
  else if (!contentKey) ctx.report(file, '/options/faqScreen', `the screen ${o.faqScreen} has no options.contentKey`);
  else {
    const keys = paragraphKeys(ctx, contentKey);
    if (!keys?.length)
      ctx.report(file, '/options/faqScreen', `${shellLocaleFile('en')} has no paragraphs under ${contentKey}`);
    for (const key of keys ?? []) known.add(`faq:${key}`);
  }

  const services = screens.get(o.servicesScreen);
  const cards = services?.kind === 'page' ? (services.options as PageOptions | undefined)?.cards : undefined;
  if (!cards?.length)
    ctx.report(
      file,
      '/options/servicesScreen',
      unknownNameMessage('screen', o.servicesScreen, 'a page screen with cards', pages),
    );
  for (const card of cards ?? []) known.add(`service:${card.route}`);

  const appeal = [...screens.values()].find((s) => s.route === o.appeal.route);
  if (!appeal)
    ctx.report(
      file,
      '/options/appeal/route',
      `no screen has the route ${o.appeal.route}: the bot sends visitors there`,
    );
  else if (o.appeal.field) {
    const schema = appeal.entity ? ctx.entities.get(appeal.entity)?.schema : undefined;
    const field = schema?.properties?.[o.appeal.field];
    if (!field || typeof field !== 'object' || field.type !== 'string')
      ctx.report(
        file,
        '/options/appeal/field',
        `"${o.appeal.field}" is not a top-level string field of ${appeal.entity ?? `the screen ${appeal.id}`}: the bot fills it with the question`,
      );
  }

  for (const id of Object.keys(o.entries ?? {}))
    if (!known.has(id))
      ctx.report(
        file,
        `/options/entries/${escapeSegment(id)}`,
        unknownNameMessage('entry', id, 'an entry of the base', known),
      );
}

/** The chat bot screen's knowledge base sources. */
export const chatbotRule: CheckRule = {
  name: 'chatbot',
  run(ctx) {
    for (const { file, screen } of ctx.screens)
      if (screen.kind === 'chatbot' && screen.options)
        checkChatbot(ctx, file, screen.options as unknown as ChatbotOptions);
  },
};
