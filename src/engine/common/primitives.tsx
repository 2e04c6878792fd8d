/**
 * Light stand-ins for the few Fluent components that the always-loaded shell and the light
 * screens (page, questionnaire, dashboard, sign-in notices) need: buttons, notices,
 * headings, a spinner, styled with the same Fluent tokens. Fluent's full components load
 * with the screens that use them; a first visit should not pay for them (bench:bundle).
 */
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { ButtonHTMLAttributes, HTMLAttributes, ReactNode, Ref } from 'react';

const useStyles = makeStyles({
  button: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingHorizontalXS,
    minHeight: '32px',
    padding: `0 ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    fontWeight: tokens.fontWeightSemibold,
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '1px' },
  },
  primary: {
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    border: `1px solid transparent`,
    ':hover': { backgroundColor: tokens.colorBrandBackgroundHover },
  },
  subtle: {
    backgroundColor: 'transparent',
    border: '1px solid transparent',
    color: 'inherit',
    padding: '0 6px',
    ':hover': { backgroundColor: 'rgba(127,127,127,0.15)' },
  },
  round: { borderRadius: tokens.borderRadiusCircular, width: '40px', height: '40px', padding: 0 },
  notice: {
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  warning: {
    backgroundColor: tokens.colorPaletteYellowBackground1,
    border: `1px solid ${tokens.colorPaletteYellowBorder1}`,
  },
  error: { backgroundColor: tokens.colorPaletteRedBackground1, border: `1px solid ${tokens.colorPaletteRedBorder1}` },
  h1: {
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase600,
    lineHeight: tokens.lineHeightBase600,
    fontWeight: tokens.fontWeightSemibold,
    margin: `${tokens.spacingVerticalS} 0 ${tokens.spacingVerticalM}`,
  },
  p: {
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase400,
    margin: `0 0 ${tokens.spacingVerticalM}`,
  },
  spinner: {
    width: '28px',
    height: '28px',
    margin: '48px auto',
    borderRadius: '50%',
    border: `3px solid ${tokens.colorNeutralStroke2}`,
    borderTopColor: tokens.colorBrandBackground,
    animationName: { to: { transform: 'rotate(360deg)' } },
    animationDuration: '0.8s',
    animationIterationCount: 'infinite',
    animationTimingFunction: 'linear',
  },
});

export function ShellButton({
  appearance,
  round,
  className,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  ref?: Ref<HTMLButtonElement>;
  appearance?: 'primary' | 'subtle';
  round?: boolean;
}) {
  const s = useStyles();
  return (
    <button
      type="button"
      className={mergeClasses(s.button, appearance && s[appearance], round && s.round, className)}
      {...rest}
    />
  );
}

export function Notice({
  intent,
  children,
  ...rest
}: HTMLAttributes<HTMLDivElement> & { intent?: 'warning' | 'error'; children: ReactNode }) {
  const s = useStyles();
  return (
    <div
      role={intent === 'error' ? 'alert' : 'status'}
      className={mergeClasses(s.notice, intent && s[intent])}
      {...rest}
    >
      {children}
    </div>
  );
}

export function Heading({ children, ...rest }: HTMLAttributes<HTMLHeadingElement>) {
  const s = useStyles();
  return (
    <h1 className={s.h1} {...rest}>
      {children}
    </h1>
  );
}

export function Paragraph({ children, ...rest }: HTMLAttributes<HTMLParagraphElement>) {
  const s = useStyles();
  return (
    <p className={s.p} {...rest}>
      {children}
    </p>
  );
}

export function PageSpinner({ label }: { label?: string }) {
  const s = useStyles();
  return <div className={s.spinner} role="progressbar" aria-label={label} />;
}
