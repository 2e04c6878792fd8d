import { tokens } from '@fluentui/react-components';

/** The bordered box of a nested group or a list of rows, shared by their templates. */
export const fieldsetStyle = {
  margin: 0,
  minWidth: 0,
  padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
  border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  borderRadius: tokens.borderRadiusMedium,
} as const;

/** Its caption. */
export const legendStyle = {
  padding: `0 ${tokens.spacingHorizontalXS}`,
  fontWeight: tokens.fontWeightSemibold,
  fontSize: tokens.fontSizeBase400,
} as const;
