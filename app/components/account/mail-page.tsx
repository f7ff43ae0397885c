import type { ReactNode } from "react";

/** The frame of the pages a mail's link opens (and the request for one): a heading and a card, narrow. */
export function MailPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex max-w-md flex-col gap-6">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <section className="card flex flex-col gap-4">{children}</section>
    </div>
  );
}

/** A form's problem that is not one field's, announced. */
export function FormError({ message, children }: { message: string | undefined; children?: ReactNode }) {
  if (!message) return null;
  return (
    <div role="alert" className="flex flex-col gap-1 text-sm text-red-700 dark:text-red-300">
      <p>{message}</p>
      {children}
    </div>
  );
}
