import { resolve } from 'node:path';
import type { IntegerSetting, ResolvedSettings, ServiceSetting } from '@platform/service';

type Env = Record<string, string | undefined>;

function integer(env: Env, spec: IntegerSetting, problems: string[]): number {
  const raw = env[spec.variable];
  if (raw === undefined || raw === '') return spec.default;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < spec.min || value > spec.max) {
    problems.push(
      `${spec.variable} must be a whole number of ${spec.unit}, ${spec.min} to ${spec.max} (got "${raw}").`,
    );
  }
  return value;
}

/**
 * A service's own settings from the environment: whole numbers within their bounds, directories
 * made absolute (a set relative path from `cwd`, the default under `dataDir`). Problems are added
 * to `problems`, every one.
 */
export function resolveServiceSettings(
  env: Env,
  paths: { cwd: string; dataDir: string },
  settings: readonly ServiceSetting[],
  problems: string[],
): ResolvedSettings {
  const resolved: ResolvedSettings = { settings: {}, directories: {} };
  for (const setting of settings) {
    if (setting.kind === 'directory') {
      const raw = env[setting.variable];
      resolved.directories[setting.name] = raw ? resolve(paths.cwd, raw) : resolve(paths.dataDir, setting.default);
    } else {
      resolved.settings[setting.name] = integer(env, setting, problems);
    }
  }
  return resolved;
}

/** How the configuration table shows a setting's default: a directory's is under DATA_DIR. */
export function settingDefault(setting: ServiceSetting): string {
  return setting.kind === 'directory' ? `(DATA_DIR/${setting.default})` : String(setting.default);
}
