import { useEffect, useRef, useState } from 'react';
import type { FormInstance } from 'antd';
import { zh } from '../../locales/zh-CN.ts';
import { toast } from '../feedback.ts';

interface SaveActionOptions<V, R> {
  form: FormInstance<V>;
  save: (values: V) => Promise<R>;
  onSaved: (result: R, values: V) => void;
  /** The save failed; the API client has already toasted it unless the call was silent. */
  onError?: (error: unknown) => void;
  successText?: string;
}

export interface SaveAction {
  isSaving: boolean;
  submit: () => void;
  /** Spread on a Modal: 保存 / 取消 buttons wired to submit. */
  modalProps: { onOk: () => void; confirmLoading: boolean; okText: string; cancelText: string };
}

/** Validate the form, save, toast 保存成功 and report back; one submit at a time. */
export function useSaveAction<V, R>({
  form,
  save,
  onSaved,
  onError,
  successText = zh.common.saveSuccess,
}: SaveActionOptions<V, R>): SaveAction {
  const [isSaving, setIsSaving] = useState(false);
  const inFlight = useRef(false);

  const run = async (): Promise<void> => {
    if (inFlight.current) return;
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return; // The form shows each field's first message.
    }
    inFlight.current = true;
    setIsSaving(true);
    let outcome: { ok: true; result: R } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, result: await save(values) };
    } catch (error) {
      outcome = { ok: false, error };
    } finally {
      inFlight.current = false;
      setIsSaving(false);
    }
    if (!outcome.ok) {
      onError?.(outcome.error);
      return;
    }
    toast.success(successText);
    onSaved(outcome.result, values);
  };

  const submit = (): void => void run();
  return {
    isSaving,
    submit,
    modalProps: { onOk: submit, confirmLoading: isSaving, okText: zh.common.save, cancelText: zh.common.cancel },
  };
}

/**
 * Each time the modal opens: clear the form, then fill it from the record being edited, or with
 * createValues (fresh defaults such as random ones) when creating.
 */
export function useResetOnOpen<V, T>(
  form: FormInstance<V>,
  open: boolean,
  record: T | null,
  toValues: (record: T) => Partial<V>,
  createValues?: () => Partial<V>,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: only opening or another record refills the form; the callbacks are new functions each render
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    const values = record !== null ? toValues(record) : createValues?.();
    // antd types the setter with a recursive partial of V; a shallow partial is one.
    if (values) form.setFieldsValue(values as Parameters<FormInstance<V>['setFieldsValue']>[0]);
    // Only opening, or another record, refills the form: the callbacks are new functions each render.
  }, [open, record, form]);
}
