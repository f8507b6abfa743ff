import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

/**
 * Field numbers of Discord's `PreloadedUserSettings` protobuf that Chorus fills (user-settings-proto:
 * status 11 → StatusSettings.status 1; localization 12 → LocalizationSettings.locale 1; appearance 13 →
 * AppearanceSettings.theme 1, developer_mode 2). The wrapped strings are google.protobuf.StringValue
 * (value = field 1).
 */
const Field = { status: 11, localization: 12, appearance: 13 } as const;
/** AppearanceSettings.theme enum values. */
const THEMES: Readonly<Record<string, number>> = { dark: 1, light: 2 };

/** A StringValue wrapper (field 1 = value) as field `fieldNo` of the message `writer` is writing. */
function wrappedString(writer: BinaryWriter, fieldNo: number, value: string): void {
  writer.tag(fieldNo, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string(value).join();
}

/**
 * READY's `user_settings_proto` (capability USER_SETTINGS_PROTO): the JSON settings the User actor
 * keeps, as a base64 PreloadedUserSettings holding status, locale, theme and developer mode. Fields
 * left out are the client's defaults; with nothing to say the result is "" (an empty message).
 */
export function userSettingsProto(settings: Readonly<Record<string, unknown>>): string {
  const writer = new BinaryWriter();
  const { status, locale, theme, developer_mode: developerMode } = settings;
  if (typeof status === 'string' && status !== '') {
    writer.tag(Field.status, WireType.LengthDelimited).fork();
    wrappedString(writer, 1, status);
    writer.join();
  }
  if (typeof locale === 'string' && locale !== '') {
    writer.tag(Field.localization, WireType.LengthDelimited).fork();
    wrappedString(writer, 1, locale);
    writer.join();
  }
  const themeValue = typeof theme === 'string' ? THEMES[theme] : undefined;
  if (themeValue !== undefined || developerMode === true) {
    writer.tag(Field.appearance, WireType.LengthDelimited).fork();
    if (themeValue !== undefined) writer.tag(1, WireType.Varint).int32(themeValue);
    if (developerMode === true) writer.tag(2, WireType.Varint).bool(true);
    writer.join();
  }
  return Buffer.from(writer.finish()).toString('base64');
}
