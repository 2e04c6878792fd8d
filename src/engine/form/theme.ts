/**
 * The portal's rjsf theme on Fluent UI v9 (DESIGN §3 says why not @rjsf/fluentui-rc): the
 * widget registry, the templates and three field overrides, merged into rjsf by `withTheme`.
 * @example const ThemedForm = withTheme(portalFormTheme);
 */
import type { ThemeProps } from '@rjsf/core';
import { ArrayField } from './fields/ArrayField.tsx';
import { NumberField } from './fields/NumberField.tsx';
import { ObjectField } from './fields/ObjectField.tsx';
import { ArrayFieldItemTemplate, ArrayFieldTemplate } from './templates/ArrayFieldTemplate.tsx';
import { BaseInputTemplate } from './templates/BaseInputTemplate.tsx';
import { FieldTemplate } from './templates/FieldTemplate.tsx';
import {
  ButtonTemplates,
  DescriptionFieldTemplate,
  ErrorListTemplate,
  FieldErrorTemplate,
  FieldHelpTemplate,
  TitleFieldTemplate,
} from './templates/misc.tsx';
import { ObjectFieldTemplate } from './templates/ObjectFieldTemplate.tsx';
import { portalWidgets } from './widgets/index.ts';

/** The theme: `withTheme(portalFormTheme)` is the form component EntityForm renders. */
export const portalFormTheme = {
  widgets: portalWidgets,
  fields: { ObjectField, ArrayField, NumberField },
  templates: {
    FieldTemplate,
    ObjectFieldTemplate,
    ArrayFieldTemplate,
    ArrayFieldItemTemplate,
    BaseInputTemplate,
    ErrorListTemplate,
    FieldErrorTemplate,
    FieldHelpTemplate,
    TitleFieldTemplate,
    DescriptionFieldTemplate,
    ButtonTemplates,
  },
} satisfies ThemeProps;
