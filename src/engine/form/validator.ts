/**
 * The form's validator. A schema the build knew (an entity's record schema, a screen's own
 * form, a transition's payload) validates with code generated at build time (scripts/form-validators.ts, loaded with
 * its screen: generated-validators.ts) through rjsf's precompiled validator; the browser then
 * never loads a JSON Schema compiler. Only a schema the build did not know — one composed at
 * run time, or one whose content differs from the build's (its hash does not match) — loads the
 * compiler (form-compiler.ts), lazily, with the same formats and keywords.
 */
import { useEffect, useState } from 'react';
import { hashForSchema, type RJSFSchema, type ValidatorType } from '@rjsf/utils';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import { generatedValidators, loadFormValidators, type FormSchemaSource } from './generated-validators.ts';

let compiler: ValidatorType | undefined;
let compilerLoading: Promise<ValidatorType> | undefined;

/** Loads the compiler (once). */
function loadCompiler(): Promise<ValidatorType> {
  compilerLoading ??= import('./form-compiler.ts').then(({ createFormCompiler }) => (compiler = createFormCompiler()));
  return compilerLoading;
}

// Component tests render forms of their own schemas and expect them at once; the app never
// takes this branch (the mode is replaced at build time and the branch dropped).
if (import.meta.env.MODE === 'test') await loadCompiler();

const hashes = new WeakMap<object, string>();
const precompiled = new WeakMap<object, ValidatorType>();

/**
 * A generated validator with the compiler behind it for a sub-schema it lacks (rjsf asks
 * `isValid` of the sub-schemas it resolves; the generator covers those rjsf's `schemaParser`
 * finds): until the compiler is loaded such a schema is "not valid", as rjsf's own validator
 * answers for a schema it cannot compile.
 */
function withFallback(inner: ValidatorType): ValidatorType {
  return {
    validateFormData: (...args) => inner.validateFormData(...args),
    rawValidation: (schema, formData) => inner.rawValidation(schema, formData),
    isValid(schema, formData, rootSchema) {
      try {
        return inner.isValid(schema, formData, rootSchema);
      } catch {
        if (compiler) return compiler.isValid(schema, formData, rootSchema);
        void loadCompiler();
        return false;
      }
    },
    reset: () => inner.reset?.(),
  };
}

/**
 * The validator of a form's root schema if it is ready now: the generated one when its module
 * is loaded, else the compiler when that is; undefined when one of them must load first
 * ({@link prepareFormValidator}).
 */
export function formValidatorFor(root: RJSFSchema): ValidatorType | undefined {
  const ready = precompiled.get(root);
  if (ready) return ready;
  let hash = hashes.get(root);
  if (hash === undefined) hashes.set(root, (hash = hashForSchema(root)));
  const fns = generatedValidators.get(hash);
  if (fns) {
    const validator = withFallback(createPrecompiledValidator(fns, root));
    precompiled.set(root, validator);
    return validator;
  }
  return compiler;
}

/**
 * Loads what validates `root` in a form of `entity`: its generated module — the entity's, and
 * that of the screen or machine `from` names (a dialog's record action or transition payload)
 * — else the compiler.
 * @example await prepareFormValidator(entity, event.payload, { machine })
 */
export async function prepareFormValidator(
  entity: string,
  root: RJSFSchema,
  from: Omit<FormSchemaSource, 'entity'> = {},
): Promise<void> {
  await loadFormValidators({ ...from, entity });
  if (!formValidatorFor(root)) await loadCompiler();
}

/**
 * The validator of a form's root schema, loading it when it is not ready (then undefined until
 * it is: the form waits rather than render with no validation).
 * @example const validator = useFormValidator(entity, schema);
 */
export function useFormValidator(entity: string, root: RJSFSchema): ValidatorType | undefined {
  const [, loadedOne] = useState(0);
  const validator = formValidatorFor(root);
  useEffect(() => {
    if (validator) return;
    let live = true;
    void prepareFormValidator(entity, root).then(() => live && loadedOne((n) => n + 1));
    return () => {
      live = false;
    };
  }, [validator, entity, root]);
  return validator;
}

/** The compiler as rjsf's validator (loaded on first need): for a schema the build did not know. */
export const portalValidator: ValidatorType = {
  validateFormData: (...args) => compilerNow().validateFormData(...args),
  isValid: (schema, formData, rootSchema) => compilerNow().isValid(schema, formData, rootSchema),
  rawValidation: (schema, formData) => compilerNow().rawValidation(schema, formData),
  reset: () => compiler?.reset?.(),
};

function compilerNow(): ValidatorType {
  if (!compiler) throw new Error('the form compiler is not loaded yet (prepareFormValidator)');
  return compiler;
}
