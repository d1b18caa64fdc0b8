/** The client's package folder. */
export declare const CLIENT_DIR: string;
/** `platform-client-<version>.tgz`: the file name `pnpm pack` gives the client's tarball. */
export declare function tarballName(): string;
/** Builds the client afresh and writes its tarball into `destination` (default: the repository's dist/); returns its path. */
export declare function packClient(options?: { destination?: string; quiet?: boolean }): string;
