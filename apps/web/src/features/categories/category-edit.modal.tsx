import { useEffect, useState } from 'react';
import { Form, Input, Modal } from 'antd';
import type { CategoryRow } from '@release/contract';
import { saveCategory } from '../../api/categories.api.ts';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';

interface CategoryEditModalProps {
  open: boolean;
  category: CategoryRow | null;
  onClose: () => void;
  onSaved: () => void;
}

/** 新增分类 / 修改分类 (POST /api/category {id?, categoryName}). */
export function CategoryEditModal({ open, category, onClose, onSaved }: CategoryEditModalProps) {
  const [form] = Form.useForm<{ categoryName: string }>();
  const [isSaving, setIsSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (category) form.setFieldsValue({ categoryName: category.categoryName });
  }, [open, category, form]);

  const submit = async (): Promise<void> => {
    const { categoryName } = await form.validateFields();
    setIsSaving(true);
    try {
      await saveCategory({ id: category?.id, categoryName: categoryName.trim() });
      toast.success(zh.common.saveSuccess);
      onSaved();
    } catch {
      // Shown by the API client.
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <Modal
      title={category ? zh.categoryPage.editTitle : zh.categoryPage.addTitle}
      open={open}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={zh.common.save}
      cancelText={zh.common.cancel}
      confirmLoading={isSaving}
      forceRender
      width="min(440px, calc(100vw - 32px))"
    >
      <Form form={form} layout="vertical" data-testid="category-modal" onFinish={() => void submit()}>
        <Form.Item
          name="categoryName"
          label={zh.categoryPage.name}
          rules={[{ required: true, whitespace: true, message: zh.categoryPage.nameRequired }]}
        >
          <Input maxLength={64} data-testid="category-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
