import { useRef, useState, type FormEvent } from 'react';
import {
  Avatar,
  Badge,
  Button,
  Card,
  Field,
  Input,
  makeStyles,
  Spinner,
  Text,
  Title2,
  Title3,
  tokens,
} from '@fluentui/react-components';
import { ArrowUploadRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../types.ts';
import { useApi } from '../../client/react/context.tsx';
import { useDataProvider, useGetProfile } from '../../client/react/hooks.ts';
import { HttpError } from '../../client/http.ts';
import { setAvatar } from '../../client/session.ts';
import { useAvatar } from '../common/useAvatar.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { PasswordMeter } from '../common/PasswordMeter.tsx';
import { PASSWORD_POLICY } from '../../shared/password-policy.ts';
import { pointerSegments } from '../../shared/pointer.ts';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

const useStyles = makeStyles({
  root: { display: 'grid', gap: tokens.spacingVerticalL, maxWidth: '720px' },
  who: { display: 'flex', gap: tokens.spacingHorizontalL, alignItems: 'center', flexWrap: 'wrap' },
  roles: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap', marginTop: tokens.spacingVerticalXS },
  form: { display: 'grid', gap: tokens.spacingVerticalM, maxWidth: '420px' },
  hint: { color: tokens.colorNeutralForeground3 },
});

type PasswordField = 'oldPassword' | 'newPassword' | 'confirmPassword';

/**
 * The signed-in user's own page (kind `profile`): name, username, roles and avatar; a photo
 * upload (`options.photoRoute` → POST /api/file-entity/save/<route>/for-profile, images only)
 * whose result becomes the session avatar at once; and the password change (current, new,
 * confirmation) with errors on their fields — the new one with the password policy's strength
 * meter; the server applies the policy on submit.
 */
export default function ProfileScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const dataProvider = useDataProvider();
  const { reportError, notifySuccess } = useApi();
  const photoRoute = (screen.options as { photoRoute?: string } | undefined)?.photoRoute;
  const profile = useGetProfile();
  const avatar = useAvatar();
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [values, setValues] = useState<Record<PasswordField, string>>({
    oldPassword: '',
    newPassword: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<Partial<Record<PasswordField, string>>>({});
  const [saving, setSaving] = useState(false);

  if (!profile.data)
    return <ScreenState screenId={screen.id} error={profile.error} onRetry={() => void profile.refetch()} />;
  const me = profile.data;
  const name = [me.names.lastName, me.names.firstName, me.names.middleName].filter(Boolean).join(' ');

  const upload = async (file: File | undefined) => {
    if (!file || !photoRoute) return;
    setUploading(true);
    try {
      const res = await dataProvider.uploadProfilePhoto(photoRoute, file);
      setAvatar(res.uploadPath);
      notifySuccess('engine.profile.avatarSaved');
      void profile.refetch();
    } catch (error) {
      reportError(error);
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const changePassword = async (event: FormEvent) => {
    event.preventDefault();
    const problems: Partial<Record<PasswordField, string>> = {};
    if (!values.oldPassword) problems.oldPassword = t('validation.required');
    if (!values.newPassword) problems.newPassword = t('validation.required');
    if (values.confirmPassword !== values.newPassword) problems.confirmPassword = t('validation.passwordMismatch');
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setSaving(true);
    try {
      await dataProvider.changePassword(values);
      setValues({ oldPassword: '', newPassword: '', confirmPassword: '' });
      notifySuccess('engine.profile.passwordChanged');
    } catch (error) {
      if (error instanceof HttpError && error.fieldErrors) {
        setErrors(
          Object.fromEntries(
            // The form's fields are top-level: a field's error goes under its name.
            Object.entries(error.fieldErrors).map(([pointer, message]) => [pointerSegments(pointer)[0] ?? '', message]),
          ),
        );
      } else reportError(error);
    } finally {
      setSaving(false);
    }
  };

  const passwordField = (field: PasswordField, autoComplete: string) => (
    <Field
      label={t(`engine.profile.${field}`)}
      required
      validationMessage={errors[field]}
      validationState={errors[field] ? 'error' : 'none'}
      data-field={`/${field}`}
    >
      <Input
        type="password"
        autoComplete={autoComplete}
        maxLength={PASSWORD_POLICY.maxLength * 2}
        value={values[field]}
        onChange={(_, data) => {
          setValues((v) => ({ ...v, [field]: data.value }));
          setErrors((e) => ({ ...e, [field]: undefined }));
        }}
      />
    </Field>
  );
  // The meter looks for what the server will: the username, and the names that weaken a password.
  const identity = { username: me.username, related: [me.names.lastName, me.names.firstName, me.names.middleName] };

  return (
    <div data-screen={screen.id} className={s.root}>
      <Title2 as="h1">{t(screen.titleKey)}</Title2>
      <Card>
        <div className={s.who}>
          <Avatar
            size={96}
            name={name || me.username}
            image={avatar ? { src: avatar } : undefined}
            data-avatar={avatar ? 'image' : 'initials'}
          />
          <div>
            <Title3 as="h2" data-profile="name">
              {name || me.username}
            </Title3>
            <Text block className={s.hint}>
              {t('engine.profile.username')}: <span data-profile="username">{me.username}</span>
            </Text>
            <Text block weight="semibold" style={{ marginTop: 8 }}>
              {t('engine.profile.roles')}
            </Text>
            <div className={s.roles} data-profile="roles">
              {me.roles.map((r) => (
                <Badge key={r.code} appearance="tint" data-role={r.code}>
                  {r.name}
                </Badge>
              ))}
            </div>
          </div>
        </div>
        {photoRoute && (
          <div>
            <input
              ref={fileInput}
              type="file"
              accept={IMAGE_TYPES.join(',')}
              hidden
              data-field="/avatar"
              onChange={(e) => void upload(e.target.files?.[0])}
            />
            <Button
              icon={uploading ? <Spinner size="tiny" /> : <ArrowUploadRegular />}
              disabled={uploading}
              data-action="upload-avatar"
              onClick={() => fileInput.current?.click()}
            >
              {t('engine.profile.uploadAvatar')}
            </Button>
            <Text size={200} className={s.hint} style={{ marginLeft: 8 }}>
              {t('engine.profile.avatarHint')}
            </Text>
          </div>
        )}
      </Card>
      <Card>
        <Title3 as="h2">{t('engine.profile.changePassword')}</Title3>
        <form className={s.form} onSubmit={(e) => void changePassword(e)} noValidate data-form="change-password">
          {passwordField('oldPassword', 'current-password')}
          <div>
            {passwordField('newPassword', 'new-password')}
            <PasswordMeter password={values.newPassword} identity={identity} quiet={Boolean(errors.newPassword)} />
          </div>
          {passwordField('confirmPassword', 'new-password')}
          <div>
            <Button type="submit" appearance="primary" disabled={saving} data-action="change-password">
              {t('engine.profile.save')}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
