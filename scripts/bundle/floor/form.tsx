/**
 * The floor of the form, wizard and sign-in routes: the shell with an rjsf form and the Fluent
 * controls every form of the portal shows (field, text input, combobox, button). Its validator
 * checks nothing: the portal's generated validators come on top.
 */
import Form from '@rjsf/core';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import { Button, Combobox, Field, Input, Option } from '@fluentui/react-components';
import { mountShell } from './shell.tsx';

const validator: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: () => true,
  rawValidation: () => ({}),
};
const schema: RJSFSchema = { type: 'object', properties: { name: { type: 'string' } } };

mountShell(
  <>
    <Field label="Region">
      <Combobox>
        <Option>Tashkent</Option>
      </Combobox>
    </Field>
    <Field label="Name">
      <Input />
    </Field>
    <Form schema={schema} validator={validator} />
    <Button appearance="primary">Send</Button>
  </>,
);
