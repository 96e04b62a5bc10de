import { Form, Input, Modal } from 'antd';
import type { CategoryRow } from '@release/contract';
import { saveCategory } from '../../api/categories.api.ts';
import { useResetOnOpen, useSaveAction } from '../../app/components/use-save-action.ts';
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
  useResetOnOpen(form, open, category, (c) => ({ categoryName: c.categoryName }));
  const action = useSaveAction({
    form,
    save: ({ categoryName }) => saveCategory({ id: category?.id, categoryName: categoryName.trim() }),
    onSaved,
  });

  return (
    <Modal
      title={category ? zh.categoryPage.editTitle : zh.categoryPage.addTitle}
      open={open}
      onCancel={onClose}
      {...action.modalProps}
      forceRender
      width="min(440px, calc(100vw - 32px))"
    >
      <Form form={form} layout="vertical" data-testid="category-modal" onFinish={action.submit}>
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
