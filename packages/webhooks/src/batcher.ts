/** A result of a batch run that fails one caller only (the others of the batch get theirs). */
export class BatchItemError {
  constructor(readonly error: unknown) {}
}

/**
 * Collects calls made within a few milliseconds (many jobs run concurrently) and serves them
 * with one database round trip; every caller still gets its own result or error. A run that
 * throws fails the whole batch; a run that returns a `BatchItemError` in a caller's place fails
 * that caller only.
 */
export class Batcher<In, Out> {
  private pending: { input: In; resolve: (value: Out) => void; reject: (error: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly run: (inputs: In[]) => Promise<(Out | BatchItemError)[]>,
    private readonly options: { maxSize?: number; waitMs?: number } = {},
  ) {}

  call(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (this.pending.length >= (this.options.maxSize ?? 100)) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.options.waitMs ?? 2);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.run(batch.map((b) => b.input)).then(
      (results) =>
        batch.forEach((b, i) =>
          results[i] instanceof BatchItemError ? b.reject(results[i].error) : b.resolve(results[i] as Out),
        ),
      (error: unknown) => batch.forEach((b) => b.reject(error)),
    );
  }
}
