/**
 * `npm run check` rule of the `messageTemplates` capability: the manifest's fields have the
 * shapes the server reads (a unique string code, an entity field whose enum names entities, a
 * text per language, a boolean), every seeded template's placeholders are fields of its entity,
 * and every workflow notice naming a stored template (`smsTemplate`) is an sms notice whose code
 * is a seeded template for an entity that follows the machine — so a fresh portal has the text.
 */
import type { JSONSchema7 } from 'json-schema';
import type { CheckContext, CheckRule } from '../../../definitions/check/context.ts';
import { createFieldCheck, entitiesWithSchema } from '../../../definitions/check/context.ts';
import { resolveFieldSchema } from '../../../shared/field-schema.ts';
import { LOCALES } from '../../../shared/locales.ts';
import { escapeSegment, pointerSegments, valueAt } from '../../../shared/pointer.ts';
import { placeholderNames, unknownPlaceholders } from '../../../shared/message-template.ts';

/** A seeded template: its code, its entity and the channel of its holder. */
interface Seeded {
  code: string;
  entity: string;
  channel: string;
}

/** Checks each manifest that declares the key and returns the templates their seeds hold. */
function checkHolders(ctx: CheckContext): Seeded[] {
  const seeded: Seeded[] = [];
  for (const { manifest, file, schema, schemaFile, seedFile } of entitiesWithSchema(ctx)) {
    const spec = manifest.messageTemplates;
    if (!spec) continue;
    const field = createFieldCheck(ctx.report, schema, schemaFile);
    field(file, '/messageTemplates/codeField', spec.codeField, { types: ['string'] });
    if (!(manifest.unique ?? []).includes(spec.codeField))
      ctx.report(file, '/messageTemplates/codeField', `field "${spec.codeField}" must be in the manifest's "unique"`);
    field(file, '/messageTemplates/activeField', spec.activeField, { types: ['boolean'] });
    field(file, '/messageTemplates/entityField', spec.entityField, { types: ['string'] });
    const targets = (resolveFieldSchema(schema, spec.entityField)?.enum ?? []) as string[];
    if (!targets.length)
      ctx.report(file, '/messageTemplates/entityField', `field "${spec.entityField}" needs an enum of entity ids`);
    for (const t of targets)
      if (!ctx.entities.has(t))
        ctx.report(
          schemaFile,
          `/properties/${pointerSegments(spec.entityField).map(escapeSegment).join('/properties/')}/enum`,
          `entity "${t}" does not exist`,
        );
    const text = resolveFieldSchema(schema, spec.textField);
    for (const locale of LOCALES)
      if (!text || !(text.properties?.[locale] as JSONSchema7 | undefined))
        ctx.report(file, '/messageTemplates/textField', `field "${spec.textField}" needs a string "${locale}"`);
    if (!seedFile || !ctx.sources.has(seedFile)) continue;
    const records = ctx.json<{ records?: Array<Record<string, unknown>> }>(seedFile).records ?? [];
    records.forEach((record, i) => {
      const entity = String(valueAt(record, spec.entityField));
      const code = valueAt(record, spec.codeField);
      if (typeof code === 'string') seeded.push({ code, entity, channel: spec.channel });
      const target = ctx.entities.get(entity)?.schema;
      if (!target) return;
      const allowed = new Set(placeholderNames(target));
      for (const locale of LOCALES) {
        const value = valueAt(record, `${spec.textField}/${locale}`);
        if (typeof value !== 'string') continue;
        for (const name of unknownPlaceholders(value, allowed))
          ctx.report(
            seedFile,
            `/records/${i}${spec.textField}/${locale}`,
            `placeholder "{{${name}}}" is not a field of ${entity} (nor id, label, status, event, deadline)`,
          );
      }
    });
  }
  return seeded;
}

const messageTemplatesCheck: CheckRule = {
  name: 'messageTemplates',
  run(ctx) {
    const seeded = checkHolders(ctx);
    for (const file of ctx.filesIn(/^workflows\/[^/]+\.machine\.json$/)) {
      const machine = ctx.machines.get(file.slice('workflows/'.length, -'.machine.json'.length));
      if (!machine) continue;
      const followers = ctx.entityList.filter((e) => e.manifest.workflow === machine.id).map((e) => e.manifest.id);
      for (const [stateName, state] of Object.entries(machine.states)) {
        for (const [event, value] of Object.entries(state.on ?? {})) {
          (Array.isArray(value) ? value : [value]).forEach((t, i) => {
            t.notify?.forEach((n, j) => {
              if (n.channel === 'system' || n.channel === 'inApp' || !n.smsTemplate) return;
              const at = `/states/${escapeSegment(stateName)}/on/${escapeSegment(event)}${Array.isArray(value) ? `/${i}` : ''}/notify/${j}/smsTemplate`;
              if (n.channel !== 'sms') return ctx.report(file, at, 'smsTemplate is for sms notices only');
              const found = seeded.filter((s) => s.code === n.smsTemplate && s.channel === 'sms');
              if (!found.length)
                ctx.report(
                  file,
                  at,
                  `no seeded SMS template has the code "${n.smsTemplate}" (a messageTemplates entity's seed)`,
                );
              else if (!found.some((s) => followers.includes(s.entity)))
                ctx.report(
                  file,
                  at,
                  `the SMS template "${n.smsTemplate}" is for ${found[0]!.entity}, which does not follow this machine`,
                );
            });
          });
        }
      }
    }
  },
};

export default messageTemplatesCheck;
